import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// A request to a path the Hono app has no route for (middleware on a path of its own counts as one)
// goes on to the routes behind the bridge before a Request is built or the app is called; whatever
// the app has a route for still reaches it, and with honoMiddleware: 'all' so does every request its
// middleware for every path matches.
describe('handing on before the app runs', () => {
  function server(hono: Hono, honoMiddleware?: 'all') {
    const calls: string[] = []
    const app = express()
    app.use(fetchBridge(hono, { honoMiddleware, env: (req: express.Request) => (calls.push(req.url), {}) }))
    app.get(/.*/, (req, res) => {
      res.send(`express ${req.url}`)
    })
    return { app, calls }
  }

  it('does not run the app (nor the env option) for a path no route or middleware matches', async () => {
    const hono = new Hono()
    hono.use('/api/*', async (c, next) => (c.req.header('authorization') ? next() : c.text('no', 401)))
    hono.get('/api/users', (c) => c.text('hono users'))
    const { app, calls } = server(hono)
    await request(app).get('/legacy/page?x=1').expect(200, 'express /legacy/page?x=1')
    await request(app).head('/legacy/page').expect(200)
    expect(calls).toEqual([])
    // Middleware on the path still guards the Express routes under it, and Hono routes are served.
    await request(app).get('/api/legacy').expect(401, 'no')
    await request(app).get('/api/legacy').set('authorization', 'x').expect(200, 'express /api/legacy')
    await request(app).get('/api/users').set('authorization', 'x').expect(200, 'hono users')
    expect(calls).toEqual(['/api/legacy', '/api/legacy', '/api/users'])
  })

  it("runs middleware for every path (app.use(mw)) for every request under honoMiddleware: 'all', and a custom getPath app always", async () => {
    const hono = new Hono()
    hono.use(async (c, next) => {
      await next()
      c.header('x-hono-saw', '1')
    })
    const byDefault = server(hono)
    await request(byDefault.app).get('/legacy').expect(200, 'express /legacy')
    expect(byDefault.calls).toEqual([])
    const { app, calls } = server(hono, 'all')
    await request(app).get('/legacy').expect(200, 'express /legacy')
    expect(calls).toEqual(['/legacy'])

    const byHost = new Hono({ getPath: (req) => '/' + new URL(req.url).hostname.split('.')[0] + new URL(req.url).pathname })
    byHost.get('/admin/panel', (c) => c.text('admin panel'))
    const hosts = server(byHost)
    await request(hosts.app).get('/panel').set('host', 'admin.example.com').expect(200, 'admin panel')
    await request(hosts.app).get('/panel').set('host', 'www.example.com').expect(200, 'express /panel')
  })
})
