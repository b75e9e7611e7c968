import express from 'express'
import { Hono } from 'hono'
import client from 'prom-client'
import { fetchBridge, migrationReport, shadowTrial, type ShadowResult, type ShadowTrial } from 'express-fetch-bridge'

/**
 * A route moved to Hono but not switched yet. Express keeps answering GET /products/:id while the
 * Hono twin runs on a copy of each request: its `price` is a string now (a mismatch the trial reports),
 * and both answers carry the time they were made (noise: it differs between two runs of the twin too).
 * GET /catalog is further along: a canary, 10% of its requests answered by Hono, sticky per user.
 */
export function createHono() {
  const hono = new Hono<{ Bindings: { shadow?: boolean } }>()
  hono.get('/products/:id', (c) =>
    c.json({ id: Number(c.req.param('id')), name: 'Lamp', price: '10', generatedAt: new Date().toISOString() }),
  )
  hono.get('/catalog', (c) => c.json({ products: [1, 2, 3], servedBy: 'hono' }))
  return hono
}

export function createTrial(log: (line: string) => void = console.log) {
  return shadowTrial({
    routes: [
      { route: '/products/:id' },
      // The canary: 10% of users get Hono's answer; the rest get Express's, compared with a shadow run.
      { route: '/catalog', canary: 10, canaryKey: (req) => req.headers['x-user-id'] as string | undefined, ignore: ['$.servedBy'] },
    ],
    readyAfter: 20,
    onResult: (result: ShadowResult) => {
      if (result.outcome === 'mismatch') log(`shadow: ${result.summary}`)
    },
  })
}

/** The trial's aggregates as Prometheus metrics, read from `trial.stats()` at each scrape (per process). */
export function createMetrics(trial: ShadowTrial) {
  const registry = new client.Registry()
  const labelNames = ['method', 'route'] as const
  const gauge = (name: string, help: string, read: (row: ReturnType<ShadowTrial['stats']>[number]) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset()
        for (const row of trial.stats()) this.set({ method: row.method, route: row.route }, read(row))
      },
    })
  gauge('shadow_samples', 'Requests compared with their Hono twin', (r) => r.samples)
  gauge('shadow_mismatches', 'Comparisons with a difference that is not noise', (r) => r.mismatched)
  gauge('shadow_match_ratio', 'Share of comparisons that matched', (r) => r.matchRate)
  gauge('shadow_noise_fields', 'Fields that differ between two runs of the Hono twin', (r) => r.noiseFields.length)
  gauge('shadow_ready', '1 once the route may be switched to Hono', (r) => (r.verdict === 'ready' ? 1 : 0))
  gauge('canary_hono_requests', 'Canary requests answered by Hono', (r) => r.canary.hono)
  gauge('canary_express_requests', 'Requests of canary routes answered by Express', (r) => r.canary.express)
  gauge('canary_fallbacks', 'Hono canary answers that failed and fell back to Express', (r) => r.canary.fallbacks)
  new client.Gauge({
    name: 'shadow_duration_p99_seconds',
    help: 'p99 duration of the compared answers, per side',
    labelNames: [...labelNames, 'side'],
    registers: [registry],
    collect() {
      this.reset()
      for (const row of trial.stats()) {
        this.set({ method: row.method, route: row.route, side: 'express' }, row.express.p99 / 1000)
        this.set({ method: row.method, route: row.route, side: 'hono' }, row.hono.p99 / 1000)
      }
    },
  })
  return registry
}

export function createApp(trial = createTrial(), hono = createHono()) {
  const registry = createMetrics(trial)
  const app = express()
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics())
  })
  // The migration report, with each trial route's evidence and verdict.
  app.get('/migration', (_req, res) => {
    res.type('text').send(migrationReport(app, hono).format())
  })
  app.use(fetchBridge(hono, { shadow: trial }))
  // The legacy routes: still answering every request of the routes under trial.
  app.get('/products/:id', (req, res) => {
    res.json({ id: Number(req.params.id), name: 'Lamp', price: 10, generatedAt: new Date().toISOString() })
  })
  app.get('/catalog', (_req, res) => {
    res.json({ products: [1, 2, 3], servedBy: 'express' })
  })
  return app
}
