import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`shared-auth example listening on ${url}`)
  console.log(`  try: curl -H 'Authorization: Bearer alice-token' ${url}/api/profile`)
})
