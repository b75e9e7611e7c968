import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from 'express-fetch-bridge'

/**
 * The app every worker runs. Nothing here is shared between requests or processes — the bridge keeps
 * no state either — so scaling out is only a matter of starting more copies.
 */
export function createApp() {
  const hono = new Hono()
  hono.get('/', (c) => c.text(`Hello from Hono in worker ${process.pid}`))
  hono.get('/whoami', (c) => c.json({ pid: process.pid }))

  const app = express()
  app.use((_req, res, next) => {
    // Shows which process answered (for the demo and its test).
    res.setHeader('x-worker-pid', String(process.pid))
    next()
  })
  app.use(fetchBridge(hono))
  return app
}
