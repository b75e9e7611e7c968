import http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, shadowTrial } from '../../src/index.js'
import { listen, request, waitFor } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

describe('what is shadowed', () => {
  it('unsafe methods are answered by Express and never run on Hono unless the route names them', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/items' }, { route: '/notes', methods: ['POST'] }], noise: false })
    const seen: Array<[string, unknown, unknown]> = []
    const hono = new Hono<{ Bindings: { shadow?: boolean; outgoing?: unknown } }>()
    hono.post('/items', (c) => {
      seen.push(['/items', c.env.shadow, c.env.outgoing])
      return c.text('hono', 201)
    })
    hono.post('/notes', async (c) => {
      seen.push(['/notes', c.env.shadow, c.env.outgoing])
      return c.json(await c.req.json(), 201)
    })
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.post('/items', (_req, res) => res.status(201).send('express'))
    app.post('/notes', express.json(), (req, res) => res.status(201).json(req.body))
    const server = await listen(app)
    try {
      const items = await request(server.url + '/items', { method: 'POST' }, 'x')
      expect(items.body.toString()).toBe('express')
      const notes = await request(server.url + '/notes', { method: 'POST', headers: { 'content-type': 'application/json' } }, ['{"a":', '1}'])
      expect(notes.body.toString()).toBe('{"a":1}')
      const results = await until(2)
      expect(results.map((r) => [r.route, r.outcome, r.reason])).toEqual([
        ['/items', 'skipped', 'unsafe-method'],
        ['/notes', 'match', undefined],
      ])
      // The twin ran for the named POST only, on a copy of the body Express's parser read, knowing it is a shadow.
      expect(seen).toEqual([['/notes', true, undefined]])
    } finally {
      await server.close()
    }
  })

  it('a body a parser read before the bridge is rebuilt for the twin', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/echo', methods: ['POST'] }], noise: false })
    const hono = new Hono()
    hono.post('/echo', async (c) => c.json({ got: await c.req.json() }))
    const app = express()
    app.use(express.json())
    app.use(fetchBridge(hono, { shadow: trial }))
    app.post('/echo', (req, res) => res.json({ got: req.body }))
    const server = await listen(app)
    try {
      const reply = await request(server.url + '/echo', { method: 'POST', headers: { 'content-type': 'application/json' } }, '{"a":[1,2]}')
      expect(reply.body.toString()).toBe('{"got":{"a":[1,2]}}')
      const [result] = await until(1)
      expect([result.outcome, result.diffs.map(String)]).toEqual(['match', []])
    } finally {
      await server.close()
    }
  })

  it('bodies over maxRequestBodyBytes are skipped and counted; Express still gets every byte', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/upload', methods: ['PUT'] }], maxRequestBodyBytes: 10, noise: false })
    const hono = new Hono()
    hono.put('/upload', async (c) => c.text(String((await c.req.text()).length)))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.put('/upload', express.text({ type: '*/*' }), (req, res) => res.type('text').send(String(req.body.length)))
    const server = await listen(app)
    try {
      const put = (headers: Record<string, string>, body: string | string[]) =>
        request(server.url + '/upload', { method: 'PUT', headers: { 'content-type': 'text/plain', ...headers } }, body)
      expect((await put({}, ['12345', '67890'])).body.toString()).toBe('10')
      expect((await put({}, ['123456', '7890', 'x'])).body.toString()).toBe('11')
      expect((await put({ 'content-length': '20' }, 'x'.repeat(20))).body.toString()).toBe('20')
      const results = await until(3)
      expect(results.map((r) => r.outcome + (r.reason ? ` ${r.reason}` : ''))).toEqual([
        'match',
        'skipped request-body-too-large',
        'skipped request-body-too-large',
      ])
      expect(trial.stats()[0].skipped).toEqual({ 'request-body-too-large': 2 })
    } finally {
      await server.close()
    }
  })

  it("a 304 from Express (the client's cache was fresh) is skipped as not-modified, not compared", async () => {
    const { trial, until } = recordedTrial({ routes: 'all', noise: false })
    const hono = new Hono()
    hono.get('/doc', (c) => c.text('same text'))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/doc', (_req, res) => res.type('text').send('same text'))
    const server = await listen(app)
    try {
      const first = await request(server.url + '/doc')
      const etag = first.res.headers.etag!
      const again = await request(server.url + '/doc', { headers: { 'if-none-match': etag } })
      expect(again.res.statusCode).toBe(304)
      const results = await until(2)
      expect(results.map((r) => r.outcome + (r.reason ? ` ${r.reason}` : ''))).toEqual(['match', 'skipped not-modified'])
      expect(trial.stats()[0].skipped).toEqual({ 'not-modified': 1 })
    } finally {
      await server.close()
    }
  })

  it('works in front-door mode: the fallback answers, the twin is compared', async () => {
    const hono = new Hono()
    hono.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
    const legacy = express()
    legacy.get('/users/:id', (req, res) => res.json({ id: Number(req.params.id) }))
    const { trial: frontTrial, until: frontUntil } = recordedTrial({ routes: 'all', noise: false })
    const server = await listen(fetchBridge(hono, { fallback: legacy, shadow: frontTrial }))
    try {
      expect((await request(server.url + '/users/7')).body.toString()).toBe('{"id":7}')
      const [result] = await frontUntil(1)
      expect(result.diffs.map(String)).toEqual(['$.id: 7 vs "7"'])
      expect(frontTrial.stats()[0]).toMatchObject({ route: '/users/:id', samples: 1 })
    } finally {
      await server.close()
    }
  })
})

describe('bounds', () => {
  it('sampleRate leaves requests out; over maxConcurrent runs they are skipped as busy; both counted', async () => {
    const sampled = recordedTrial({ routes: 'all', sampleRate: 0, noise: false })
    const busy = recordedTrial({ routes: 'all', maxConcurrent: 1, noise: false })
    let runs = 0
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const hono = new Hono()
    hono.get('/slow', async (c) => {
      runs++
      await gate
      return c.text('ok')
    })
    const none = express()
    none.use(fetchBridge(hono, { shadow: sampled.trial }))
    const one = express()
    one.use(fetchBridge(hono, { shadow: busy.trial }))
    for (const app of [none, one]) app.get('/slow', (_req, res) => res.type('text').send('ok'))
    const [a, b] = await Promise.all([listen(none), listen(one)])
    try {
      for (let i = 0; i < 3; i++) await request(a.url + '/slow')
      expect(runs).toBe(0)
      expect(sampled.trial.stats()[0].skipped).toEqual({ 'sampled-out': 3 })
      // The first run holds the only slot until the gate opens: the next two are answered, not shadowed.
      for (let i = 0; i < 3; i++) await request(b.url + '/slow')
      open()
      const results = await busy.until(3)
      expect(results.map((r) => r.outcome + (r.reason ? ` ${r.reason}` : ''))).toEqual(['skipped busy', 'skipped busy', 'match'])
      expect(runs).toBe(1)
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('a hung twin is a mismatch after timeoutMs, frees its slot and is not kept in memory', async () => {
    const { trial, until } = recordedTrial({ routes: 'all', timeoutMs: 30, maxConcurrent: 1, noise: false })
    const collected = { count: 0 }
    const registry = new FinalizationRegistry(() => collected.count++)
    const hono = new Hono()
    hono.get('/hang', (c) => {
      registry.register(c.req.raw, 'request')
      return new Promise<Response>(() => {})
    })
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/hang', (_req, res) => res.send('express'))
    const server = await listen(app)
    try {
      for (let i = 0; i < 10; i++) {
        expect((await request(server.url + '/hang')).body.toString()).toBe('express')
        await until(i + 1)
      }
      const results = await until(10)
      // maxConcurrent is 1: every run after the first was started, so each timed-out run gave its slot back.
      expect(results.map((r) => r.outcome)).toEqual(Array(10).fill('mismatch'))
      expect(results[0].diffs.map(String)).toEqual(['error: timeout: no answer within 30 ms'])
      expect(trial.inFlight).toBe(0)
      // Every hung run's request can be collected (the last may still be referenced by this test's locals).
      const freed = await waitFor(() => {
        gc()
        return collected.count >= 8
      }, 10000)
      expect(freed).toBe(true)
    } finally {
      await server.close()
    }
  }, 30000)

  it('a twin that throws, or returns nothing, is a reported mismatch; the client never sees it', async () => {
    const { trial, until } = recordedTrial({ routes: 'all', noise: false })
    const app = express()
    const hono = new Hono()
    hono.get('/throws', () => {
      throw new Error('boom')
    })
    hono.get('/nothing', (() => undefined) as never)
    hono.onError((err) => {
      throw err
    })
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/throws', (_req, res) => res.send('fine'))
    app.get('/nothing', (_req, res) => res.send('fine'))
    const server = await listen(app)
    try {
      for (const path of ['/throws', '/nothing']) {
        const reply = await request(server.url + path)
        expect([reply.res.statusCode, reply.body.toString()]).toEqual([200, 'fine'])
      }
      const results = await until(2)
      expect(results.map((r) => [r.outcome, r.hono?.status])).toEqual([
        ['mismatch', 0],
        ['mismatch', 404],
      ])
      expect(results[0].diffs.map(String)).toEqual(['error: threw Error: boom'])
      // Hono answers a handler that returned nothing with its not-found answer.
      expect(results[1].diffs.map(String)).toContain('status: 200 vs 404')
    } finally {
      await server.close()
    }
  })

  it('memory stays bounded over 5,000 shadowed requests, each with a difference of its own', async () => {
    const trial = shadowTrial({ routes: 'all', noise: false, maxConcurrent: 64 })
    let n = 0
    const hono = new Hono()
    hono.get('/grow', (c) => c.json({ [`k${++n}`]: 'x'.repeat(200) }))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/grow', (_req, res) => res.json({}))
    const server = await listen(app)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    try {
      const total = 5000
      let sent = 0
      let baseline = 0
      const worker = async () => {
        while (sent < total) {
          sent++
          await request(server.url + '/grow', { agent })
          if (sent === 500) {
            gc()
            baseline = process.memoryUsage().heapUsed
          }
        }
      }
      await Promise.all(Array.from({ length: 8 }, worker))
      expect(await waitFor(() => trial.inFlight === 0, 5000)).toBe(true)
      const [row] = trial.stats()
      expect(row.samples + (row.skipped.busy ?? 0)).toBe(total)
      expect(row.samples).toBeGreaterThan(total / 2)
      // One field per request differed: the route keeps 100 and counts the rest together.
      expect(row.differences.length).toBe(101)
      expect(row.differences[0]).toEqual({ field: '(other fields)', count: row.samples - 100, noise: false })
      gc()
      const growth = process.memoryUsage().heapUsed - baseline
      expect(growth).toBeLessThan(16 * 1024 * 1024)
    } finally {
      agent.destroy()
      await server.close()
    }
  }, 60000)
})
