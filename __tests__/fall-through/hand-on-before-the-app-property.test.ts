import http from 'node:http'
import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'
import { unmatchedCheck } from '../../src/bridge/fallthrough.js'
import { fetchBridge, type HonoMiddleware } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

// The hand-on rule against Hono's real dispatch, for random apps (routes and middleware on literal,
// parameter, wildcard and optional paths, middleware for every path, basePath, strict or not) and
// random requests.

const segment = fc.constantFrom('api', 'users', 'v1', 'a', 'b', ':id', '*', ':opt?', 'Admin')
const pattern = fc.array(segment, { minLength: 0, maxLength: 3 }).map((parts) => '/' + parts.join('/'))
const pathPart = fc.constantFrom('api', 'users', 'v1', 'a', 'b', '42', 'admin', 'Admin', '%61', 'caf%C3%A9', 'é', '')
const target = fc
  .tuple(fc.array(pathPart, { minLength: 0, maxLength: 4 }), fc.boolean(), fc.boolean())
  .map(([parts, slash, query]) => '/' + parts.join('/') + (slash ? '/' : '') + (query ? '?q=1' : ''))
const method = fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE', 'OPTIONS', 'PUT')
const registration = fc.record({
  kind: fc.constantFrom('use', 'use', 'get', 'post', 'all', 'on'),
  path: fc.oneof(pattern, fc.constantFrom('*', '/*')),
})
const appShape = fc.record({
  strict: fc.boolean(),
  base: fc.constantFrom('', '', '/api'),
  registrations: fc.array(registration, { maxLength: 6 }),
})
// Up to four requests drawn from two method/target pairs (so that repeats are likely).
const requests = fc
  .tuple(fc.tuple(method, target), fc.tuple(method, target), fc.array(fc.nat(1), { minLength: 1, maxLength: 4 }))
  .map(([a, b, picks]) => picks.map((i) => (i === 0 ? a : b)))
type Shape = typeof appShape extends fc.Arbitrary<infer T> ? T : never

/** Every method a route can be registered for here (HEAD routes as GET). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']

/** The app for `shape`; `ran` collects the labels of the handlers that ran (`global` for middleware for every path). */
function build(shape: Shape, ran: string[]) {
  let hono = new Hono({ strict: shape.strict })
  if (shape.base !== '') hono = hono.basePath(shape.base)
  shape.registrations.forEach(({ kind, path }, i) => {
    // Middleware for every path makes no path the app's; middleware on a path of its own does.
    const label = kind === 'use' && shape.base === '' && (path === '*' || path === '/*') ? 'global' : `${i} ${kind} ${path}`
    if (kind === 'use') {
      hono.use(path, async (_c, next) => {
        ran.push(label)
        await next()
      })
    } else if (kind === 'on') {
      hono.on(['PUT', 'DELETE'], path, (c) => (ran.push(label), c.text(label)))
    } else {
      hono[kind](path, (c) => (ran.push(label), c.text(label)))
    }
  })
  return hono
}

it('never says "nothing would run" for a request Hono would run a handler for', async () => {
  await fc.assert(
    fc.asyncProperty(appShape, method, target, async (shape, m, t) => {
      const ran: string[] = []
      const hono = build(shape, ran)
      const says = unmatchedCheck(hono as never, 'all')!(m, t)
      const res = await hono.fetch(new Request('http://localhost' + t, { method: m }))
      if (says) {
        expect(ran).toEqual([])
        expect(res.status).toBe(404)
      }
    }),
    { numRuns: 3000 },
  )
})

describe('through the bridge in Express, against Hono alone', () => {
  let server: Running
  let bridge: express.RequestHandler = (_req, _res, next) => next()
  let envCalls = 0
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  beforeAll(async () => {
    const app = express()
    // D1's observable: code an earlier middleware runs after next() must run after the route.
    app.use((req, _res, next) => {
      next()
      ;(req as { afterNext?: boolean }).afterNext = true
    })
    app.use((req, res, next) => bridge(req, res, next))
    app.use((req, res) => {
      res.json({ express: true, sync: (req as { afterNext?: boolean }).afterNext !== true })
    })
    server = await listen(app)
  })
  afterAll(async () => {
    agent.destroy()
    await server.close()
  })

  // Several requests to one bridge, repeats likely: the bridge remembers answers per target and hands
  // its router match to the dispatch that follows; each request must still get what Hono alone gives.
  async function check(mode: HonoMiddleware, shape: Shape, requests: Array<[string, string]>) {
    const ran: string[] = []
    const hono = build(shape, ran)
    bridge = fetchBridge(hono, { honoMiddleware: mode, env: () => (envCalls++, {}) }) as express.RequestHandler
    for (const [m, t] of requests) await checkOne(mode, hono, ran, m, t)
  }

  async function checkOne(mode: HonoMiddleware, hono: Hono, ran: string[], m: string, t: string) {
    ran.length = 0 // what ran for the request before
    // The oracle: Hono alone, for this request, and for every method on its path.
    const alone = await hono.fetch(new Request('http://localhost' + t, { method: m }))
    const aloneBody = m === 'HEAD' || alone.status === 404 ? '' : await alone.text()
    const ranAlone = ran.splice(0)
    for (const other of METHODS) await hono.fetch(new Request('http://localhost' + t, { method: other }))
    const hasRoute = ran.splice(0).some((label) => label !== 'global')
    envCalls = 0
    const { res, body } = await request(server.url + t, { method: m, agent })
    // The bridge hands a target Express and Hono would read apart (`%61`) to Express untouched.
    const routedApart = /%61/.test(t.split('?')[0])
    if (routedApart || alone.status === 404) {
      expect(res.statusCode).toBe(200)
      if (m !== 'HEAD') expect(JSON.parse(body.toString()).express).toBe(true)
    } else {
      expect(res.statusCode).toBe(alone.status)
      if (m !== 'HEAD') expect(body.toString()).toBe(aloneBody)
    }
    if (routedApart || (mode === 'routes' && !hasRoute) || ranAlone.length === 0) {
      // No route for the path (or nothing at all would run): Express gets it in the same tick, and no
      // Hono code ran.
      expect(ran).toEqual([])
      expect(envCalls).toBe(0)
      if (m !== 'HEAD') expect(JSON.parse(body.toString())).toEqual({ express: true, sync: true })
    } else {
      // Otherwise exactly what Hono alone runs for it (middleware for every path included) runs.
      expect(ran).toEqual(ranAlone)
    }
  }

  it("default ('routes'): a request to a path with no route reaches Express synchronously, no middleware ran", async () => {
    await fc.assert(
      fc.asyncProperty(appShape, requests, (shape, list) => check('routes', shape, list)),
      { numRuns: 1500 },
    )
  }, 120_000)

  it("honoMiddleware: 'all': the handlers Hono alone runs for a request run for it, middleware for every path included", async () => {
    await fc.assert(
      fc.asyncProperty(appShape, requests, (shape, list) => check('all', shape, list)),
      { numRuns: 600 },
    )
  }, 120_000)
})

it('finds unmatched requests (the check is not always false)', () => {
  const hono = new Hono()
  hono.use(async (_c, next) => next())
  hono.get('/api/users', (c) => c.text('x'))
  const routes = unmatchedCheck(hono as never, 'routes')!
  expect(routes('GET', '/legacy')).toBe(true)
  expect(routes('GET', '/api/users')).toBe(false)
  expect(routes('HEAD', '/api/users')).toBe(false)
  // A route's path is the app's for every method (its OPTIONS preflight, a 405 from middleware).
  expect(routes('POST', '/api/users')).toBe(false)
  const all = unmatchedCheck(hono as never, 'all')!
  expect(all('GET', '/legacy')).toBe(false)
})
