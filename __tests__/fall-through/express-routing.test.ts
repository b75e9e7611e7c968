import http from 'node:http'
import connect from 'connect'
import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { WebSocketServer } from 'ws'
import { fetchBridge, type DispatchInfo, type FetchBridgeOptions } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect as wsConnect, listenOn } from '../helpers/websocket.js'
import { waitFor } from '../helpers/transport.js'

// The expressRouting option, one behaviour per test; the property test next to this file checks the
// rule against real Express dispatch for random apps.

const fromExpress = (_req: unknown, res: express.Response) => res.send('express')

/** A Hono app whose routes answer with what the request shows. */
function shows(base = ''): Hono {
  const hono = new Hono()
  const answer = (c: any) =>
    c.json({
      path: c.req.path,
      url: new URL(c.req.url).pathname + new URL(c.req.url).search,
      routePath: c.req.routePath,
      params: c.req.param(),
    })
  hono.get(`${base}/users/:name`, answer)
  hono.get(`${base}/items/`, answer)
  hono.get(`${base}/files/*`, answer)
  return hono
}

function server(options: FetchBridgeOptions, setup: (app: express.Express) => void = () => {}) {
  const app = express()
  setup(app)
  app.use(fetchBridge(shows(), options))
  app.get('/users/:name', fromExpress)
  app.use((_req, res) => res.status(404).send('express 404'))
  return app
}

describe('expressRouting', () => {
  it('is off by default: other case and a trailing slash still go to Express (day one changes nothing)', async () => {
    const app = server({})
    await request(app)
      .get('/users/Ada')
      .expect(200, { path: '/users/Ada', url: '/users/Ada', routePath: '/users/:name', params: { name: 'Ada' } })
    await request(app).get('/USERS/Ada').expect(200, 'express')
    await request(app).get('/users/Ada/').expect(200, 'express')
  })

  it('takes other case and a trailing slash as Express does; the request shows the route spelling, parameters as sent', async () => {
    const app = server({ expressRouting: true })
    const seen = { path: '/users/Ada', url: '/users/Ada?x=Y', routePath: '/users/:name', params: { name: 'Ada' } }
    await request(app).get('/USERS/Ada/?x=Y').expect(200, seen)
    await request(app).get('/Users/Ada?x=Y').expect(200, seen)
    await request(app).get('/items').expect(200, { path: '/items/', url: '/items/', routePath: '/items/', params: {} })
    await request(app)
      .get('/FILES/A/b')
      .expect(200, { path: '/files/A/b', url: '/files/A/b', routePath: '/files/*', params: {} })
    // Two slashes are not one more: Express's route does not match, so neither does Hono's.
    await request(app).get('/users/Ada//').expect(404, 'express 404')
  })

  it("keeps the client's own target on the Express request (originalUrl)", async () => {
    const hono = new Hono<any>().get('/users', (c) => c.text(`${c.env.incoming.originalUrl} ${c.req.path}`))
    const app = express().use(fetchBridge(hono, { expressRouting: true }))
    await request(app).get('/USERS/').expect(200, '/USERS/ /users')
  })

  it("reads the app's case sensitive routing and strict routing", async () => {
    const sensitive = server({ expressRouting: true }, (app) => app.set('case sensitive routing', true))
    await request(sensitive).get('/USERS/Ada').expect(404, 'express 404')
    await request(sensitive)
      .get('/users/Ada/')
      .expect(200, /"routePath":"\/users\/:name"/)
    const strict = server({ expressRouting: true }, (app) => app.set('strict routing', true))
    await request(strict).get('/users/Ada/').expect(404, 'express 404')
    await request(strict)
      .get('/USERS/Ada')
      .expect(200, /"routePath":"\/users\/:name"/)
  })

  it('reads the options of the Router the bridge is mounted in, and of a front-door fallback app', async () => {
    const router = express.Router({ caseSensitive: true })
    router.use(fetchBridge(shows(), { expressRouting: true }))
    const app = express().use('/v1', router)
    await request(app)
      .get('/V1/users/Ada/')
      .expect(200, /"path":"\/users\/Ada"/)
    await request(app).get('/v1/USERS/Ada').expect(404)
    const fallback = express().set('strict routing', true)
    fallback.use((_req, res) => res.status(404).send('fallback'))
    const frontDoor = fetchBridge(shows(), { expressRouting: true, fallback })
    await request(frontDoor)
      .get('/USERS/Ada')
      .expect(200, /"path":"\/users\/Ada"/)
    await request(frontDoor).get('/users/Ada/').expect(404, 'fallback')
  })

  it("takes explicit settings over Express's, and Express's defaults under Connect", async () => {
    const explicit = server({ expressRouting: { caseSensitive: true } })
    // Hono does not take it; the Express route behind (case-insensitive) does.
    await request(explicit).get('/USERS/Ada').expect(200, 'express')
    await request(explicit)
      .get('/users/Ada/')
      .expect(200, /"path":"\/users\/Ada"/)
    const app = connect().use(fetchBridge(shows(), { expressRouting: true }))
    await request(app)
      .get('/Users/Ada/')
      .expect(200, /"path":"\/users\/Ada"/)
  })

  it("composes with mountPath 'keep' (the mount prefix in any case), basePath() and route()", async () => {
    // A case-sensitive Router under a case-insensitive app: Express matched /API as the mount path, so
    // only the route's own letters must match exactly.
    const router = express.Router({ caseSensitive: true })
    router.use(fetchBridge(shows('/api'), { mountPath: 'keep', expressRouting: true }))
    const kept = express().use('/api', router)
    await request(kept)
      .get('/API/users/Ada/')
      .expect(200, /"path":"\/api\/users\/Ada"/)
    await request(kept).get('/api/USERS/Ada').expect(404)
    const hono = new Hono()
    hono.basePath('/v2').get('/orders', (c) => c.text(`orders ${c.req.path}`))
    hono.route(
      '/admin',
      new Hono().get('/stats', (c) => c.text(`stats ${c.req.path}`)),
    )
    const app = express().use(fetchBridge(hono, { expressRouting: true }))
    await request(app).get('/V2/Orders/').expect(200, 'orders /v2/orders')
    await request(app).get('/ADMIN/stats').expect(200, 'stats /admin/stats')
  })

  it('composes with Hono strict: false (Hono still takes a trailing slash, even under strict routing)', async () => {
    const hono = new Hono({ strict: false }).get('/users', (c) => c.text(`users ${c.req.path}`))
    const app = express()
      .set('strict routing', true)
      .use(fetchBridge(hono, { expressRouting: true }))
    await request(app).get('/USERS/').expect(200, 'users /users')
  })

  it('hands on a request no route matches before building a Request (env is not called)', async () => {
    let envCalls = 0
    const env = () => (envCalls++, {})
    const app = server({ expressRouting: true, env })
    await request(app).get('/legacy').expect(404, 'express 404')
    await request(app).get('/users').expect(404, 'express 404')
    expect(envCalls).toBe(0)
    await request(app).get('/USERS/Ada').expect(200)
    expect(envCalls).toBe(1)
  })

  it('reports the route to onDispatch for a request in another case', async () => {
    const seen: Array<[string, string | undefined]> = []
    const app = server({ expressRouting: true, onDispatch: (info: DispatchInfo) => seen.push([info.side, info.route]) })
    await request(app).get('/USERS/Ada/').expect(200)
    await request(app).get('/nothing').expect(404)
    expect(await waitFor(() => seen.length === 2, 2000)).toBe(true)
    expect(seen).toEqual([
      ['hono', '/users/:name'],
      ['express', undefined],
    ])
  })

  it('matches WebSocket upgrades by the same rule', async () => {
    const hono = new Hono()
    hono.get(
      '/chat',
      upgradeWebSocket((c) => ({ onOpen: (_evt, ws) => ws.send(c.req.path) })),
    )
    const app = express()
    const bridge = fetchBridge(hono, { expressRouting: true })
    app.use(bridge)
    const httpServer = http.createServer(app)
    attachWebSockets(httpServer, bridge, { wss: new WebSocketServer({ noServer: true }) })
    const port = await listenOn(httpServer)
    try {
      const client = await wsConnect(`ws://127.0.0.1:${port}/CHAT/`)
      expect(await client.next()).toBe('/chat')
      client.ws.close()
      await client.closed
    } finally {
      await closeServer(httpServer)
    }
  })

  it('rejects a bad value, and an app that is not a Hono app, with a clear error', () => {
    const hono = new Hono()
    expect(() => fetchBridge(hono, { expressRouting: 'yes' as never })).toThrow(/expressRouting must be true, false or/)
    expect(() => fetchBridge(hono, { expressRouting: { strict: 1 as never } })).toThrow(
      /expressRouting.strict must be true or false/,
    )
    expect(() => fetchBridge(() => new Response('x'), { expressRouting: true })).toThrow(
      /expressRouting matches Hono routes/,
    )
    expect(() => fetchBridge(hono, { expressRouting: false })).not.toThrow()
  })
})

describe('a Hono route that matched but gave no Response', () => {
  it('goes on to Express, and onDispatch says which route and why; one process warning per route', async () => {
    const hono = new Hono()
    // @ts-expect-error -- the newcomer's mistake: no `return`
    hono.get('/forgot/:id', (c) => {
      c.text('never sent')
    })
    const seen: Array<Pick<DispatchInfo, 'side' | 'route' | 'reason'>> = []
    const app = express()
    app.use(fetchBridge(hono, { onDispatch: ({ side, route, reason }) => seen.push({ side, route, reason }) }))
    app.get('/forgot/:id', fromExpress)
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => {})
    let warnings: Array<[string, { code?: string }]>
    try {
      await request(app).get('/forgot/1').expect(200, 'express')
      await request(app).get('/forgot/2').expect(200, 'express')
      expect(await waitFor(() => seen.length === 2, 2000)).toBe(true)
      warnings = emitWarning.mock.calls.map((call) => [String(call[0]), call[1] as { code?: string }])
    } finally {
      emitWarning.mockRestore()
    }
    expect(seen).toEqual([
      { side: 'express', route: '/forgot/:id', reason: 'no-response' },
      { side: 'express', route: '/forgot/:id', reason: 'no-response' },
    ])
    const mine = warnings.filter(([message]) => message.includes('/forgot/:id'))
    expect(mine).toHaveLength(1)
    expect(mine[0][0]).toMatch(/Hono route GET \/forgot\/:id matched GET \/forgot\/1 but gave no Response/)
    expect(mine[0][1].code).toBe('EXPRESS_FETCH_BRIDGE_NO_RESPONSE')
  })

  it('a request no route matched has the reason no-route', async () => {
    const seen: Array<string | undefined> = []
    const app = express()
    app.use(
      fetchBridge(
        new Hono().get('/x', (c) => c.text('x')),
        { onDispatch: (info) => seen.push(info.reason) },
      ),
    )
    app.use((_req, res) => res.send('express'))
    await request(app).get('/y').expect(200, 'express')
    expect(await waitFor(() => seen.length === 1, 2000)).toBe(true)
    expect(seen).toEqual(['no-route'])
  })
})
