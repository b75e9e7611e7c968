import { migrationReport } from 'express-fetch-bridge'
import { createApp, createHono, createMetrics } from './app.js'

const hono = createHono()
const app = createApp(createMetrics(), hono)
// Where the migration stands, before serving: the same table `express-fetch-bridge routes` prints.
console.log(migrationReport(app, hono).format())

const port = Number(process.env.PORT ?? 3000)
const server = app.listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`migration-report example listening on ${url}`)
  console.log(`  try: curl ${url}/users ; curl -X POST ${url}/users ; curl ${url}/metrics`)
})
