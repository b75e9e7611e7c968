import http from 'node:http'
import compression from 'compression'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, shadowTrial, type DispatchInfo } from '../../src/index.js'
import { listen, request, waitFor, type Running } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

function apps(trial: ReturnType<typeof shadowTrial>, onDispatch?: (info: DispatchInfo) => void) {
  const hono = new Hono()
  hono.get('/page', (c) => c.text('hono'))
  hono.get('/broken', (c) => c.text('hono failed', 503))
  hono.get('/throws', () => {
    throw new Error('boom')
  })
  hono.post('/broken', (c) => c.text('hono failed', 500))
  const app = express()
  app.use(fetchBridge(hono, { shadow: trial, onDispatch }))
  app.get('/page', (_req, res) => res.send('express'))
  app.get('/broken', (_req, res) => res.send('express'))
  app.get('/throws', (_req, res) => res.send('express'))
  app.post('/broken', (_req, res) => res.send('express'))
  return app
}

/** How many of `n` requests Hono answered; `headers(i)` gives request i's headers. */
async function honoShare(server: Running, n: number, headers: (i: number) => Record<string, string>): Promise<string[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
  const sides: string[] = []
  try {
    for (let i = 0; i < n; i += 8) {
      const batch = Array.from({ length: Math.min(8, n - i) }, (_, j) => request(server.url + '/page', { agent, headers: headers(i + j) }))
      for (const reply of await Promise.all(batch)) sides.push(reply.body.toString())
    }
  } finally {
    agent.destroy()
  }
  return sides
}

describe('canary', () => {
  it('answers the share of requests by Hono, within tolerance, at random by default', async () => {
    const trial = shadowTrial({ routes: [{ route: '/page', canary: 10, shadow: false }] })
    const server = await listen(apps(trial))
    try {
      const n = 2000
      const sides = await honoShare(server, n, () => ({}))
      const hono = sides.filter((s) => s === 'hono').length
      // Binomial(2000, 0.1): mean 200, standard deviation 13.4; four of them either side.
      expect(Math.abs(hono - 200)).toBeLessThan(54)
      expect(trial.stats()[0].canary).toEqual({ hono, express: n - hono, fallbacks: 0 })
    } finally {
      await server.close()
    }
  }, 30000)

  it('is sticky by the key function: a user always gets the same side, and the share holds over users', async () => {
    const trial = shadowTrial({ routes: [{ route: '/page', canary: 30, canaryKey: (req) => req.headers['x-user'] as string | undefined }] })
    const server = await listen(apps(trial))
    try {
      const users = 600
      const first = await honoShare(server, users, (i) => ({ 'x-user': `user-${i}` }))
      const again = await honoShare(server, users, (i) => ({ 'x-user': `user-${i}` }))
      expect(again).toEqual(first)
      const hono = first.filter((s) => s === 'hono').length
      // Binomial(600, 0.3): mean 180, standard deviation 11.2.
      expect(Math.abs(hono - 180)).toBeLessThan(45)
    } finally {
      await server.close()
    }
  }, 30000)

  it('falls back to Express when Hono answers a safe request with a 5xx or throws, and says so in onDispatch', async () => {
    const dispatched: Array<[string, string]> = []
    // Hono's default error handler logs the seeded throw.
    jest.spyOn(console, 'error').mockImplementation(() => {})
    const trial = shadowTrial({ routes: [{ route: '/broken', canary: 100, methods: ['GET'] }, { route: '/throws', canary: 100 }] })
    const app = apps(trial, (info) => dispatched.push([info.side, info.reason]))
    const server = await listen(app)
    try {
      const got = await request(server.url + '/broken')
      expect([got.res.statusCode, got.body.toString()]).toEqual([200, 'express'])
      const thrown = await request(server.url + '/throws')
      expect([thrown.res.statusCode, thrown.body.toString()]).toEqual([200, 'express'])
      // An unsafe method is not retried on Express: Hono's answer stands.
      const post = await request(server.url + '/broken', { method: 'POST' })
      expect([post.res.statusCode, post.body.toString()]).toEqual([500, 'hono failed'])
      expect(await waitFor(() => dispatched.length === 3, 2000)).toBe(true)
      expect(dispatched).toEqual([
        ['express', 'canary-fallback'],
        ['express', 'canary-fallback'],
        ['hono', 'canary'],
      ])
      const rows = Object.fromEntries(trial.stats().map((r) => [`${r.method} ${r.route}`, r.canary]))
      expect(rows['GET /broken']).toEqual({ hono: 1, express: 0, fallbacks: 1 })
      expect(rows['GET /throws']).toEqual({ hono: 1, express: 0, fallbacks: 1 })
      expect(rows['POST /broken']).toEqual({ hono: 1, express: 0, fallbacks: 0 })
    } finally {
      await server.close()
    }
  })

  it('onDispatch tells shadowed, canary and plain Hono requests apart', async () => {
    const dispatched: Array<[string, string, string | undefined]> = []
    const trial = shadowTrial({ routes: [{ route: '/page', canary: 0 }] })
    const hono = new Hono()
    hono.get('/page', (c) => c.text('hono'))
    hono.get('/new', (c) => c.text('new'))
    hono.post('/page', (c) => c.text('hono'))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial, onDispatch: (i) => dispatched.push([i.side, i.reason, i.route]) }))
    app.get('/page', (_req, res) => res.send('express'))
    app.post('/page', (_req, res) => res.send('express'))
    const server = await listen(app)
    try {
      expect((await request(server.url + '/page')).body.toString()).toBe('express')
      expect((await request(server.url + '/new')).body.toString()).toBe('new')
      expect((await request(server.url + '/old')).res.statusCode).toBe(404)
      // POST is not shadowed by default: Express answers it without a shadow run.
      expect((await request(server.url + '/page', { method: 'POST' })).body.toString()).toBe('express')
      expect(await waitFor(() => dispatched.length === 4, 2000)).toBe(true)
      expect(dispatched).toEqual([
        ['express', 'shadow', undefined],
        ['hono', 'route', '/new'],
        ['express', 'no-route', undefined],
        ['express', 'holdback', undefined],
      ])
    } finally {
      await server.close()
    }
  })
})

describe("Express's answer is compared as the route wrote it", () => {
  it.each(['front', 'route'])('under compression() %s of the bridge, gzip on the wire', async (where) => {
    const t = recordedTrial({ routes: 'all', noise: false })
    const hono = new Hono()
    hono.get('/data', (c) => c.json({ items: Array.from({ length: 50 }, (_, i) => ({ i })) }))
    const app = express()
    if (where === 'front') app.use(compression({ threshold: 0 }))
    app.use(fetchBridge(hono, { shadow: t.trial }))
    const handlers: express.RequestHandler[] = [(_req, res) => void res.json({ items: Array.from({ length: 50 }, (_, i) => ({ i })) })]
    if (where === 'route') handlers.unshift(compression({ threshold: 0 }))
    app.get('/data', ...handlers)
    const server = await listen(app)
    try {
      const reply = await request(server.url + '/data', { headers: { 'accept-encoding': 'gzip' } })
      expect(reply.res.headers['content-encoding']).toBe('gzip')
      const [result] = await t.until(1)
      expect([result.outcome, result.diffs.map(String)]).toEqual(['match', []])
    } finally {
      await server.close()
    }
  })
})
