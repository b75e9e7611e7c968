import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { expectTexts } from '../helpers/apps.js'

describe.each(expressVersions)('fall-through on %s', (_name, express) => {
  function host(hono: Parameters<typeof fetchBridge>[0], options?: Parameters<typeof fetchBridge>[1]) {
    const app = express()
    app.use(fetchBridge(hono, options))
    app.get('/legacy', (_req, res) => {
      res.send('express legacy')
    })
    app.all('/both', (_req, res) => {
      res.send('express both')
    })
    return app
  }

  it('serves matched Hono routes and hands unmatched requests to the Express routes behind', async () => {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono moved'))
    const app = host(hono)
    await request(app).get('/moved').expect(200, 'hono moved')
    await request(app).get('/legacy').expect(200, 'express legacy')
  })

  it("ends at Express's own 404 when no Express route matches either", async () => {
    const app = host(new Hono())
    const res = await request(app).get('/nowhere').expect(404)
    expect(res.text).toContain('Cannot GET /nowhere')
  })

  it('does not count Hono middleware (use) as a match, but runs it', async () => {
    const hono = new Hono()
    const seen: string[] = []
    hono.use(async (c, next) => {
      seen.push(c.req.path)
      await next()
    })
    hono.use('/legacy', async (_c, next) => {
      await next()
    })
    const app = host(hono)
    await request(app).get('/legacy').expect(200, 'express legacy')
    expect(seen).toEqual(['/legacy'])
  })

  it('counts all() routes and method-specific routes as matches', async () => {
    const hono = new Hono()
    hono.all('/both', (c) => c.text(`hono all ${c.req.method}`))
    hono.post('/legacy', (c) => c.text('hono post'))
    const app = host(hono)
    await request(app).put('/both').expect(200, 'hono all PUT')
    await request(app).post('/legacy').expect(200, 'hono post')
    // Same path, other method: Hono has no GET /legacy, Express has.
    await request(app).get('/legacy').expect(200, 'express legacy')
  })

  it('sends a deliberate 404 from a route as is', async () => {
    const hono = new Hono()
    hono.get('/legacy', (c) => c.text('nope', 404))
    const app = host(hono)
    await request(app).get('/legacy').expect(404, 'nope')
  })

  it('falls through when a route returns c.notFound() or no response', async () => {
    const hono = new Hono()
    hono.get('/legacy', (c) => c.notFound())
    hono.all('/both', async (_c, next) => {
      await next()
    })
    const app = host(hono)
    await request(app).get('/legacy').expect(200, 'express legacy')
    await request(app).delete('/both').expect(200, 'express both')
  })

  it('sends what middleware turned the not-found response into when it is no longer a 404', async () => {
    const hono = new Hono()
    hono.use(async (c, next) => {
      await next()
      if (c.res.status === 404) c.res = c.redirect('/login')
    })
    hono.get('/gone', (c) => c.notFound())
    await request(host(hono)).get('/gone').expect(302).expect('location', '/login')
    // A path with no Hono route is Express's, before any Hono middleware (honoMiddleware 'routes')...
    await request(host(hono)).get('/legacy').expect(200, 'express legacy')
    // ...unless middleware is asked to run for every request.
    await request(host(hono, { honoMiddleware: 'all' })).get('/legacy').expect(302).expect('location', '/login')
  })

  it('falls through for HEAD requests too, and answers HEAD for Hono GET routes', async () => {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono moved'))
    const app = host(hono)
    await request(app).head('/legacy').expect(200).expect('content-length', '14')
    await request(app).head('/moved').expect(200).expect('content-length', '10')
  })

  it('matches routes of sub-apps mounted with route() and of basePath apps', async () => {
    const users = new Hono()
    users.get('/:id', (c) => c.text(`user ${c.req.param('id')}`))
    const hono = new Hono()
    hono.route('/users', users)
    const api = new Hono().basePath('/api')
    api.get('/ping', (c) => c.text('pong'))

    const app = express()
    app.use(fetchBridge(hono))
    app.use(fetchBridge(api))
    app.get('/users', (_req, res) => {
      res.send('express users')
    })
    app.get('/ping', (_req, res) => {
      res.send('express ping')
    })
    await expectTexts(app, { '/users/7': 'user 7', '/users': 'express users', '/api/ping': 'pong', '/ping': 'express ping' })
  })

  it('sees routes, sub-apps and onError handlers added after the bridge was created', async () => {
    const hono = new Hono()
    const app = host(hono)
    const sub = new Hono()
    sub.get('/x', (c) => c.text('sub x'))
    hono.route('/sub', sub)
    hono.get('/late', () => {
      throw new Error('late failure')
    })
    hono.onError((err, c) => c.text(`handled: ${err.message}`, 503))
    await request(app).get('/sub/x').expect(200, 'sub x')
    await request(app).get('/late').expect(503, 'handled: late failure')
    await request(app).get('/legacy').expect(200, 'express legacy')
  })

  it("keeps the app's own notFound handler, set before or after the bridge, for app.request() and fallthrough: false", async () => {
    const before = new Hono()
    before.notFound((c) => c.text('custom before', 404))
    const after = new Hono()

    const app = express()
    app.use('/a', fetchBridge(before))
    app.use('/b', fetchBridge(after))
    app.use('/c', fetchBridge(before, { fallthrough: false }))
    app.use('/d', fetchBridge(after, { fallthrough: false }))
    after.notFound((c) => c.text('custom after', 404))

    expect(await (await before.request('/zzz')).text()).toBe('custom before')
    expect(await (await after.request('/zzz')).text()).toBe('custom after')
    await request(app).get('/a/zzz').expect(404, /Cannot GET/)
    await request(app).get('/b/zzz').expect(404, /Cannot GET/)
    await request(app).get('/c/zzz').expect(404, 'custom before')
    await request(app).get('/d/zzz').expect(404, 'custom after')
  })

  it("sends Hono's default 404 with fallthrough: false", async () => {
    const app = host(new Hono(), { fallthrough: false })
    await request(app).get('/legacy').expect(404, '404 Not Found')
  })

  it('treats undefined or null from a function or { fetch } app as "not mine"', async () => {
    const app = express()
    app.use(
      fetchBridge((req: Request) => (new URL(req.url).pathname === '/fn' ? new Response('fn') : undefined)),
    )
    app.use(fetchBridge({ fetch: (req: Request) => (new URL(req.url).pathname === '/obj' ? new Response('obj') : null) }))
    app.get('/legacy', (_req, res) => {
      res.send('express legacy')
    })
    await request(app).get('/fn').expect(200, 'fn')
    await request(app).get('/obj').expect(200, 'obj')
    await request(app).get('/legacy').expect(200, 'express legacy')
  })

  it('reports undefined from a function app as an error with fallthrough: false', async () => {
    const app = express()
    app.use(fetchBridge(() => undefined, { fallthrough: false }))
    app.use((err: Error, _req: unknown, res: import('express').Response, _next: unknown) => {
      res.status(500).send(`error: ${err.message}`)
    })
    await request(app).get('/x').expect(500, 'error: The app returned no Response')
  })
})
