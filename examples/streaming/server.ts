import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp({
  count: Number(process.env.EVENTS ?? 10),
  intervalMs: Number(process.env.INTERVAL_MS ?? 1000),
}).listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  console.log(`streaming example listening on http://localhost:${actual}`)
  console.log(`  open it in a browser, or: curl -N --compressed http://localhost:${actual}/events`)
})
