import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`incremental-migration example listening on ${url}`)
  console.log(`  moved to Hono: ${url}/users   still Express: ${url}/orders`)
})
