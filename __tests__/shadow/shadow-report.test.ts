import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, migrationReport, shadowTrial } from '../../src/index.js'
import { listen, request } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

describe('the migration report shows the evidence of a shadow trial', () => {
  it('per route: samples, match rate, noise, unexplained differences, canary, and the cut-over verdict', async () => {
    const { trial, until } = recordedTrial({
      routes: [{ route: '/ok' }, { route: '/off' }, { route: '/quiet' }],
      readyAfter: 3,
      noise: { first: 1, gapMs: 0 },
    })
    let n = 0
    const hono = new Hono()
    hono.get('/ok', (c) => c.json({ a: 1, at: ++n }))
    hono.get('/off', (c) => c.json({ a: 2 }))
    hono.get('/quiet', (c) => c.json({}))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/ok', (_req, res) => res.json({ a: 1, at: 0 }))
    app.get('/off', (_req, res) => res.json({ a: 1 }))
    app.get('/quiet', (_req, res) => res.json({}))
    const server = await listen(app)
    try {
      for (let i = 0; i < 2; i++) await request(server.url + '/ok')
      await request(server.url + '/off')
      await until(3)
      let report = migrationReport(app, hono)
      expect(report.shadow.map((r) => [r.method, r.route, r.samples, r.verdict])).toEqual([
        ['GET', '/off', 1, 'mismatch'],
        ['GET', '/ok', 2, 'collecting'],
        ['GET', '/quiet', 0, 'collecting'],
      ])
      await request(server.url + '/ok')
      await until(4)
      report = migrationReport(app, hono)
      expect(report.shadow[1]).toMatchObject({ route: '/ok', samples: 3, matched: 3, verdict: 'ready', noiseFields: ['$.at'] })
      const text = report.format()
      expect(text).toMatch(/^Shadow runs and canary \(this process\)$/m)
      expect(text).toMatch(/^ {2}mismatch +GET +\/off +1 +0\.0% +- +[\d.]+\/[\d.]+ ms +[\d.]+\/[\d.]+ ms +differs: \$\.a \(1\)$/m)
      expect(text).toMatch(/^ {2}ready +GET +\/ok +3 +100\.0% .*noise: \$\.at$/m)
      expect(JSON.parse(JSON.stringify(report)).shadow).toHaveLength(3)
    } finally {
      await server.close()
    }
  })
})

describe('the migration report on routes under a shadow trial', () => {
  // Express answers the requests a trial holds back (all but the canary share, and the canary's
  // fallbacks): the Express route is never dead code while its Hono route is under trial.
  function server(canary: number, settings: { strict?: boolean } = {}) {
    const hono = new Hono()
    hono.get('/products/:id', (c) => c.json({ id: c.req.param('id') }))
    hono.post('/products/:id', (c) => c.json({ id: c.req.param('id') }))
    hono.get('/health', (c) => c.text('ok'))
    const trial = shadowTrial({ routes: [{ route: '/products/:id', canary }] })
    const app = express()
    app.set('case sensitive routing', settings.strict === true)
    app.set('strict routing', settings.strict === true)
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/products/:id', (req, res) => void res.json({ id: req.params.id }))
    app.post('/products/:id', (req, res) => void res.json({ id: req.params.id }))
    app.get('/health', (_req, res) => void res.send('ok'))
    return { app, hono }
  }
  const rows = (report: ReturnType<typeof migrationReport>) => ({
    express: report.express.map((e) => [e.status, e.method, e.path, e.honoRoutes]),
    hono: report.hono.map((h) => [h.status, h.method, h.path, h.expressRoutes]),
  })

  it.each<[string, { strict?: boolean }]>([
    ['strict, case-sensitive routing', { strict: true }],
    ["Express's default routing", {}],
  ])('%s: the Express route is under trial, every method of it, never shadowed; other routes as before', (_name, settings) => {
    const { app, hono } = server(0, settings)
    const report = migrationReport(app, hono)
    expect(rows(report)).toEqual({
      express: [
        ['under-trial', 'GET', '/products/:id', ['GET /products/:id']],
        ['under-trial', 'POST', '/products/:id', ['POST /products/:id']],
        [settings.strict ? 'shadowed' : 'partly-shadowed', 'GET', '/health', ['GET /health']],
      ],
      hono: [
        ['under-trial', 'GET', '/products/:id', ['GET /products/:id']],
        ['under-trial', 'POST', '/products/:id', ['POST /products/:id']],
        ['moved', 'GET', '/health', ['GET /health']],
      ],
    })
    expect(report.express[0].samples).toContainEqual({
      method: 'GET',
      path: '/products/sample',
      servedBy: 'express',
      answeredBy: 'GET /products/:id',
      trial: { honoRoute: 'GET /products/:id', canary: 0 },
    })
    expect(report.summary).toMatchObject({ underTrial: 2, honoUnderTrial: 2, live: 0 })
    const text = report.format()
    expect(text).toMatch(/^ {2}under-trial +GET +\/products\/:id +GET \/products\/:id +under a shadow trial: Express answers, Hono runs as its shadow; keep this route$/m)
    expect(text).not.toMatch(/\/products\/:id.*safe to delete/)
    expect(text).toMatch(/still live, 2 under trial\. .* unreachable, 2 under trial\.$/m)
  })

  it.each([
    [10, 'Express answers, Hono a 10% canary share'],
    [100, 'Hono answers (canary 100%), Express the fallbacks'],
  ])('canary %i: still under trial, with its share', (canary, note) => {
    const { app, hono } = server(canary)
    const report = migrationReport(app, hono)
    expect(report.express[0]).toMatchObject({ status: 'under-trial', path: '/products/:id' })
    expect(report.express[0].samples[0].trial).toEqual({ honoRoute: 'GET /products/:id', canary })
    expect(report.format()).toContain(`under a shadow trial: ${note}; keep this route`)
  })

  it('front door: the same', () => {
    const hono = new Hono()
    hono.get('/products/:id', (c) => c.json({ id: c.req.param('id') }))
    const fallback = express()
    fallback.get('/products/:id', (req, res) => void res.json({ id: req.params.id }))
    const door = fetchBridge(hono, { fallback, shadow: shadowTrial({ routes: [{ route: '/products/:id', canary: 5 }] }) })
    const report = migrationReport(door)
    expect(rows(report)).toEqual({
      express: [['under-trial', 'GET', '/products/:id', ['GET /products/:id']]],
      hono: [['under-trial', 'GET', '/products/:id', ['GET /products/:id']]],
    })
  })
})
