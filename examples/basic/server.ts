import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  console.log(`express-fetch-bridge demo listening on http://localhost:${actual}`)
  console.log(`  try: curl http://localhost:${actual}/  and  curl http://localhost:${actual}/legacy`)
})
