import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

// Each Express route has a Hono twin that differs from it in one seeded way; the client always gets
// Express's answer, and the comparison names the difference by kind and path.

const seeds: Array<{ path: string; express: (res: express.Response) => void; hono: (c: any) => Response | Promise<Response> }> = [
  { path: '/status', express: (res) => res.json({ ok: true }), hono: (c) => c.json({ ok: true }, 201) },
  {
    path: '/header',
    express: (res) => res.set('cache-control', 'max-age=60').json({ ok: true }),
    hono: (c) => c.json({ ok: true }, 200, { 'cache-control': 'no-store' }),
  },
  { path: '/value', express: (res) => res.json({ price: 10 }), hono: (c) => c.json({ price: 11 }) },
  {
    path: '/type',
    express: (res) => res.json({ items: [{ price: 1 }, { price: 10 }] }),
    hono: (c) => c.json({ items: [{ price: 1 }, { price: '10' }] }),
  },
  { path: '/missing', express: (res) => res.json({ a: 1, b: 2 }), hono: (c) => c.json({ a: 1 }) },
  { path: '/extra', express: (res) => res.json({ a: 1 }), hono: (c) => c.json({ a: 1, 'odd key': 2 }) },
  { path: '/order', express: (res) => res.json({ tags: ['a', 'b', 'c'] }), hono: (c) => c.json({ tags: ['c', 'a', 'b'] }) },
  { path: '/text', express: (res) => res.type('text').send('hello world'), hono: (c) => c.text('hello World') },
  // The same answer as far as a client can tell: JSON's charset parameter, key order, Express-only headers.
  {
    path: '/same',
    express: (res) => res.json({ a: 1, b: [1, 2] }),
    hono: (c) => c.body(JSON.stringify({ b: [1, 2], a: 1 }), 200, { 'content-type': 'application/json' }),
  },
  {
    path: '/ignored',
    express: (res) => res.json({ id: 1, meta: { requestId: 'x1' } }),
    hono: (c) => c.json({ id: 1, meta: { requestId: 'y2' } }),
  },
]

const expected: Record<string, string[]> = {
  '/status': ['status: 200 vs 201'],
  '/header': ['header:cache-control: max-age=60 vs no-store'],
  '/value': ['$.price: 10 vs 11'],
  '/type': ['$.items[1].price: 10 vs "10"'],
  '/missing': ['$.b: 2 vs (missing)'],
  '/extra': ['$["odd key"]: (missing) vs 2'],
  '/order': ['$.tags: same items in another order'],
  '/text': ['body: "hello world" vs "hello World"'],
  '/same': [],
  '/ignored': [],
}

const kinds: Record<string, string> = {
  '/status': 'value',
  '/value': 'value',
  '/type': 'type',
  '/missing': 'missing',
  '/extra': 'extra',
  '/order': 'order',
}

describe('shadow comparison of seeded differences', () => {
  const { trial, until } = recordedTrial({
    routes: [{ route: '/ignored', ignore: ['$.meta.requestId'] }, { route: '*' }],
    noise: false,
  })
  let server: Running
  let honoRuns = 0
  beforeAll(async () => {
    const hono = new Hono()
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    for (const seed of seeds) {
      hono.get(seed.path, (c) => {
        honoRuns++
        return seed.hono(c)
      })
      app.get(seed.path, (_req, res) => seed.express(res))
    }
    server = await listen(app)
  })
  afterAll(() => server.close())

  it('answers every request with Express and reports each difference by path and kind', async () => {
    const bodies: Record<string, string> = {}
    for (const seed of seeds) bodies[seed.path] = (await request(server.url + seed.path)).body.toString()
    expect(bodies['/value']).toBe('{"price":10}')
    expect(bodies['/type']).toBe('{"items":[{"price":1},{"price":10}]}')
    const results = await until(seeds.length)
    expect(honoRuns).toBe(seeds.length)
    const byPath = Object.fromEntries(results.map((r) => [r.url, r]))
    for (const [path, diffs] of Object.entries(expected)) {
      expect([path, byPath[path].diffs.map(String)]).toEqual([path, diffs])
      expect([path, byPath[path].outcome]).toEqual([path, diffs.length === 0 ? 'match' : 'mismatch'])
      if (kinds[path]) expect(byPath[path].diffs[0].kind).toBe(kinds[path])
    }
    expect(byPath['/value'].express.status).toBe(200)
    expect(byPath['/status'].hono!.status).toBe(201)
    expect(byPath['/value'].summary).toBe('GET /value mismatch: $.price: 10 vs 11')
  })

  it('aggregates per route: samples, match rate, the fields that differed, durations of both sides', () => {
    const rows = Object.fromEntries(trial.stats().map((r) => [r.route, r]))
    expect(rows['/value']).toMatchObject({ method: 'GET', samples: 1, matched: 0, mismatched: 1, matchRate: 0, verdict: 'mismatch' })
    expect(rows['/value'].differences).toEqual([{ field: '$.price', count: 1, noise: false }])
    expect(rows['/same']).toMatchObject({ samples: 1, matched: 1, matchRate: 1, verdict: 'collecting' })
    expect(rows['/same'].express.p50).toBeGreaterThan(0)
    expect(rows['/same'].hono.p99).toBeGreaterThan(0)
  })
})

describe('noise: fields that differ between two runs of the Hono twin', () => {
  it('are reported as noise, not mismatches; a real difference next to them still is one', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/report' }, { route: '/both' }], noise: { first: 3, gapMs: 0 }, readyAfter: 3 })
    let n = 0
    const hono = new Hono()
    hono.get('/report', (c) => c.json({ total: 3, generatedAt: ++n }, 200, { 'x-build': String(n) }))
    hono.get('/both', (c) => c.json({ total: 4, generatedAt: ++n }))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/report', (_req, res) => res.set('x-build', 'old').json({ total: 3, generatedAt: 0 }))
    app.get('/both', (_req, res) => res.json({ total: 3, generatedAt: 0 }))
    const server = await listen(app)
    try {
      for (let i = 0; i < 3; i++) await request(server.url + '/report')
      await request(server.url + '/both')
      const results = await until(4)
      const report = results.filter((r) => r.route === '/report')
      expect(report.map((r) => r.outcome)).toEqual(['match', 'match', 'match'])
      expect(report[0].diffs.map((d) => [d.field, d.noise])).toEqual([
        ['header:x-build', true],
        ['$.generatedAt', true],
      ])
      const both = results.find((r) => r.route === '/both')!
      expect(both.outcome).toBe('mismatch')
      expect(both.summary).toBe('GET /both mismatch: $.total: 3 vs 4 (1 noise field)')
      const rows = Object.fromEntries(trial.stats().map((r) => [r.route, r]))
      expect(rows['/report']).toMatchObject({ matched: 3, verdict: 'ready', noiseFields: ['$.generatedAt', 'header:x-build'] })
      expect(rows['/both'].verdict).toBe('mismatch')
    } finally {
      await server.close()
    }
  })
})
