import express from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// The hand-on rule (docs/guide/day-one.md): a request to a path the Hono app has no route for reaches
// Express in the same tick, before any Hono code runs; honoMiddleware: 'all' runs Hono middleware for
// every request instead, and then the hand-on comes after it.

/** Issue 32's repro (Express's own examples/mvc): an Express middleware changes the session after next(). */
function mvc(hono: Hono | undefined, options?: Parameters<typeof fetchBridge>[1]) {
  const app = express()
  app.use(session({ secret: 's', resave: false, saveUninitialized: false }))
  app.use((req, _res, next) => {
    next()
    ;(req.session as unknown as { messages: string[] }).messages = []
  })
  if (hono !== undefined) app.use(fetchBridge(hono, options))
  app.get('/', (_req, res) => res.redirect('/users'))
  return app
}

describe('honoMiddleware', () => {
  it('default: middleware for every path does not run for an Express route, which answers as Express alone (no session cookie)', async () => {
    const seen: string[] = []
    const hono = new Hono()
    hono.use('*', async (c, next) => {
      seen.push(c.req.path)
      await next()
    })
    hono.get('/api/users', (c) => c.text('hono'))
    const alone = await request(mvc(undefined)).get('/').expect(302)
    const res = await request(mvc(hono)).get('/').expect(302)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(res.headers).toEqual({ ...alone.headers, date: res.headers.date })
    expect(seen).toEqual([])
    await request(mvc(hono)).get('/api/users').expect(200, 'hono')
    expect(seen).toEqual(['/api/users'])
  })

  it("'all': middleware runs for every request, and an Express middleware's code after next() runs before the route (D1)", async () => {
    const seen: string[] = []
    const hono = new Hono()
    hono.use('*', async (c, next) => {
      seen.push(c.req.path)
      await next()
    })
    const res = await request(mvc(hono, { honoMiddleware: 'all' })).get('/').expect(302)
    expect(seen).toEqual(['/'])
    // The session was modified before the route answered: express-session saves it and sets a cookie.
    expect(res.headers['set-cookie']).toBeDefined()
  })

  it("a route's path is the app's for every method: its CORS preflight and a 405 from middleware run", async () => {
    const hono = new Hono()
    hono.use('*', async (c, next) => {
      if (c.req.method === 'OPTIONS') return c.body(null, 204, { 'access-control-allow-origin': '*' })
      await next()
      if (c.res.status === 404 && c.req.path === '/api/items') c.res = c.text('not allowed', 405)
    })
    hono.get('/api/items', (c) => c.text('items'))
    const app = express().use(fetchBridge(hono))
    app.all(/.*/, (req, res) => res.send(`express ${req.method}`))
    await request(app).options('/api/items').expect(204).expect('access-control-allow-origin', '*')
    await request(app).post('/api/items').expect(405, 'not allowed')
    await request(app).options('/legacy').expect(200, 'express OPTIONS')
  })

  it('middleware on a path of its own counts as a route (serveStatic, a mounted app, a guard)', async () => {
    const hono = new Hono()
    hono.use('/static/*', async (c) => c.text(`file ${c.req.path}`))
    hono.use('/admin/*', async (c, next) => (c.req.header('authorization') ? next() : c.text('no', 401)))
    hono.mount('/mounted', (req: Request) => new Response(`mounted ${new URL(req.url).pathname}`))
    const app = express().use(fetchBridge(hono))
    app.get(/.*/, (req, res) => res.send(`express ${req.url}`))
    await request(app).get('/static/a.css').expect(200, 'file /static/a.css')
    await request(app).get('/mounted/x').expect(200, 'mounted /x')
    await request(app).get('/admin/legacy').expect(401, 'no')
    await request(app).get('/admin/legacy').set('authorization', 'x').expect(200, 'express /admin/legacy')
    await request(app).get('/other').expect(200, 'express /other')
  })

  it("front-door mode defaults to 'all': Hono middleware (a session, a logger) also runs for the fallback's requests", async () => {
    const seen: string[] = []
    const hono = new Hono()
    hono.use(async (c, next) => {
      seen.push(c.req.path)
      await next()
    })
    const legacy = express().get('/legacy', (_req, res) => res.send('legacy'))
    await request(fetchBridge(hono, { fallback: legacy })).get('/legacy').expect(200, 'legacy')
    expect(seen).toEqual(['/legacy'])
    await request(fetchBridge(hono, { fallback: legacy, honoMiddleware: 'routes' })).get('/legacy').expect(200, 'legacy')
    expect(seen).toEqual(['/legacy'])
  })

  it('is checked: a bad value, or routes asked of an app that runs for every request, is a start-up error', () => {
    const hono = new Hono()
    expect(() => fetchBridge(hono, { honoMiddleware: 'none' as 'all' })).toThrow(
      "fetchBridge: honoMiddleware must be 'routes' or 'all', got none",
    )
    const byHost = new Hono({ getPath: (req) => new URL(req.url).hostname })
    expect(() => fetchBridge(byHost, { honoMiddleware: 'routes' })).toThrow(/custom getPath/)
    expect(() => fetchBridge(byHost)).not.toThrow()
    expect(() => fetchBridge(hono, { fallthrough: false, honoMiddleware: 'routes' })).toThrow(/needs fallthrough/)
    expect(() => fetchBridge({ fetch: () => null }, { honoMiddleware: 'routes' })).toThrow(TypeError)
    expect(() => fetchBridge({ fetch: () => null }, { honoMiddleware: 'all' })).not.toThrow()
  })
})
