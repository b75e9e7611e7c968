// req.route for a request a Hono route answered, as Express sets it for its own routes: the pattern
// relative to req.baseUrl and the route's methods, read at the end of the response (where loggers and
// express-prom-bundle read it). Requests that fall through get Express's own req.route.
import { Hono } from 'hono'
import supertest from 'supertest'
import { fetchBridge, shadowTrial } from '../../src/index'
import { expressVersions } from '../helpers/express-versions'

type Express = (typeof expressVersions)[number][1]
type Seen = { baseUrl: string; path?: string; methods?: Record<string, boolean> }

function recorder(seen: Seen[]) {
  return (req: any, res: any, next: () => void) => {
    res.on('finish', () => seen.push({ baseUrl: req.baseUrl, path: req.route?.path, methods: req.route && { ...req.route.methods } }))
    next()
  }
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/api/users/7'],
  ['HEAD', '/api/users/7'],
  ['POST', '/api/orders'],
  ['DELETE', '/api/anything'],
  ['GET', '/api'],
  ['GET', '/api/legacy/x'],
]

async function run(express: Express, setup: (app: any) => void): Promise<Seen[]> {
  const seen: Seen[] = []
  const app = express()
  app.use(recorder(seen))
  setup(app)
  app.get('/api/legacy/:name', (_req: any, res: any) => res.send('legacy'))
  for (const [method, path] of REQUESTS) await (supertest(app) as any)[method.toLowerCase()](path).expect((r: any) => r.status < 400)
  return seen
}

function honoApi(prefix: string) {
  const hono = new Hono()
  hono.get(`${prefix}/users/:id`, (c) => c.text('user'))
  hono.post(`${prefix}/orders`, (c) => c.text('ok', 201))
  hono.all(`${prefix}/anything`, (c) => c.text('any'))
  hono.get(prefix === '' ? '/' : prefix, (c) => c.text('root'))
  return hono
}

describe.each(expressVersions)('%s', (_name, express) => {
  const router = (app: any) => {
    const api = express.Router()
    api.get('/users/:id', (_req, res) => void res.send('user'))
    api.post('/orders', (_req, res) => void res.status(201).send('ok'))
    api.all('/anything', (_req, res) => void res.send('any'))
    api.get('/', (_req, res) => void res.send('root'))
    app.use('/api', api)
  }

  it.each([
    ['mountPath strip', (app: any) => app.use('/api', fetchBridge(honoApi('')))],
    ['mountPath keep', (app: any) => app.use('/api', fetchBridge(honoApi('/api'), { mountPath: 'keep' }))],
    // Requests a canary share sends to Hono are answered by a Hono route like any other.
    ['canary', (app: any) => app.use('/api', fetchBridge(honoApi(''), { shadow: shadowTrial({ routes: [{ route: '*', canary: 100 }] }) }))],
  ])('%s: req.route reads as for an Express Router mounted at the same path', async (_mode, setup) => {
    const before = await run(express, router)
    expect(before[0]).toEqual({ baseUrl: '/api', path: '/users/:id', methods: { get: true } })
    expect(await run(express, setup)).toEqual(before)
  })

  it('at the root: req.baseUrl + req.route.path is the full pattern, as for routes on the app', async () => {
    // Paths only: app.all() gives its route every method by name, Router.all() `_all` (as the bridge).
    const full = (seen: Seen[]) => seen.map((s) => `${s.baseUrl}${s.path}`)
    const before = await run(express, (app) => {
      app.get('/api/users/:id', (_req: any, res: any) => res.send('user'))
      app.post('/api/orders', (_req: any, res: any) => res.status(201).send('ok'))
      app.all('/api/anything', (_req: any, res: any) => res.send('any'))
      app.get('/api', (_req: any, res: any) => res.send('root'))
    })
    expect(full(await run(express, (app) => app.use(fetchBridge(honoApi('/api')))))).toEqual(full(before))
    expect(full(before)).toEqual(['/api/users/:id', '/api/users/:id', '/api/orders', '/api/anything', '/api', '/api/legacy/:name'])
  })

  it('a request a Hono middleware answered (no handler route) has the route path *', async () => {
    const hono = new Hono()
    hono.use('/admin/*', async (c, _next) => c.text('no', 401))
    const seen: Seen[] = []
    const app = express()
    app.use(recorder(seen))
    app.use(fetchBridge(hono))
    await supertest(app).get('/admin/x').expect(401)
    expect(seen).toEqual([{ baseUrl: '', path: '*', methods: { _all: true } }])
  })
})

it('without a tracer, the route is looked up only when req.route is read (one match of the router more)', async () => {
  const express = expressVersions[0][1]
  const hono = new Hono()
  hono.get('/users/:id', (c) => c.text('user'))
  // Hono's routers replace their match() on first use: count from the second request on.
  await hono.request('/users/0')
  let matches = 0
  const match = hono.router.match.bind(hono.router)
  hono.router.match = (method, path) => (matches++, match(method, path))
  const count = async (read: boolean) => {
    const app = express()
    app.use((req, res, next) => {
      if (read) res.on('finish', () => void (req as { route?: { path: string } }).route?.path)
      next()
    })
    app.use('/api', fetchBridge(hono))
    const before = matches
    await supertest(app).get('/api/users/7').expect(200, 'user')
    return matches - before
  }
  const unread = await count(false)
  expect(await count(true)).toBe(unread + 1)
})
