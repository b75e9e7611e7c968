import express from 'express'
import { Hono } from 'hono'
import client from 'prom-client'
import { fetchBridge, type DispatchInfo } from 'express-fetch-bridge'

/**
 * A server half-way through its migration, instrumented: every request the bridge sees is counted
 * by side (Hono, Express, ...) and route, and timed, in Prometheus metrics served at /metrics.
 */
export function createMetrics() {
  const registry = new client.Registry()
  const requests = new client.Counter({
    name: 'bridge_requests_total',
    help: 'Requests that reached the bridge, by the side that served them',
    // `route` is the Hono pattern ('/users/:id'), never the raw URL: label values must stay few.
    labelNames: ['side', 'method', 'route', 'status'],
    registers: [registry],
  })
  const duration = new client.Histogram({
    name: 'bridge_request_duration_seconds',
    help: 'Time from the bridge receiving a request to the response finishing',
    labelNames: ['side'],
    buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2],
    registers: [registry],
  })
  const onDispatch = (info: DispatchInfo) => {
    requests.inc({ side: info.side, method: info.method, route: info.route ?? '', status: info.status })
    duration.observe({ side: info.side }, info.duration / 1000)
  }
  return { registry, onDispatch }
}

export function createHono() {
  const hono = new Hono()
  hono.get('/users', (c) => c.json([{ id: 1, name: 'Ada' }]))
  hono.get('/users/:id{[0-9]+}', (c) => c.json({ id: Number(c.req.param('id')), name: 'Ada' }))
  hono.get('/api/v2/orders', (c) => c.json([]))
  hono.delete('/users/:id', (c) => c.body(null, 204))
  hono.get('/health', (c) => c.json({ ok: true }))
  return hono
}

export function createApp(metrics = createMetrics(), hono = createHono()) {
  const app = express()
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics())
  })
  // expressRouting: Hono routes take /USERS and /users/ as the Express routes they replace did, so
  // the report can call GET /users dead code (`shadowed`). POST /users is still live.
  app.use(fetchBridge(hono, { onDispatch: metrics.onDispatch, expressRouting: true }))
  app.get('/users', (_req, res) => {
    res.json([{ id: 1, name: 'Ada' }])
  })
  app.post('/users', (_req, res) => {
    res.status(201).json({ id: 2 })
  })
  app.get('/users/:id', (req, res) => {
    res.json({ id: req.params.id, legacy: true })
  })
  const api = express.Router({ mergeParams: true })
  api.get('/orders', (req, res) => {
    res.json({ version: (req.params as Record<string, string>).version, orders: [] })
  })
  app.use('/api/:version', api)
  // Moved whole: Hono answers every request it got (/health, /HEALTH, /health/). Safe to delete.
  app.get('/health', (_req, res) => {
    res.json({ ok: true, legacy: true })
  })
  return app
}

// What `npx express-fetch-bridge routes examples/migration-report/app.ts` reads: the app, with the
// bridge (and so the Hono app) mounted in it.
export const app = createApp()
