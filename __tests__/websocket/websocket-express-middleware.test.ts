import http, { type Server } from 'node:http'
import express from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import { WebSocketServer } from 'ws'
import { expressMiddleware, fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, listenOn, rawUpgrade } from '../helpers/websocket.js'

// Express middleware in front of a Hono WebSocket route runs for the upgrade, on a stand-in response:
// a session is read, a guard's answer refuses the upgrade with its status and headers.
describe('expressMiddleware() for WebSocket upgrades', () => {
  let server: Server
  let port: number

  beforeAll(async () => {
    const sessions = session({ secret: 'test', resave: false, saveUninitialized: false, store: new session.MemoryStore() })
    const hono = new Hono<{ Bindings: { incoming: http.IncomingMessage & { session?: session.Session & { user?: string } } } }>()
    // A global middleware that hands on after setting a header (helmet, cors…): the header joins the 101.
    hono.use(expressMiddleware((_req: unknown, res: express.Response, next: () => void) => (res.setHeader('x-seen-by', 'express'), next())))
    hono.use(expressMiddleware(sessions))
    hono.post('/login', (c) => {
      c.env.incoming.session!.user = 'alice'
      return c.text('ok')
    })
    const guard = (req: { session?: { user?: string } }, res: express.Response, next: () => void) => {
      if (req.session?.user) return next()
      res.status(401).set('WWW-Authenticate', 'Session realm="chat"').send('log in first')
    }
    hono.use('/private/*', expressMiddleware(guard))
    hono.get('/open', upgradeWebSocket(() => ({ onOpen: (_e, ws) => ws.send('hello') })))
    hono.get(
      '/private/chat',
      upgradeWebSocket((c) => ({ onOpen: (_e, ws) => ws.send(`welcome ${c.env.incoming.session?.user}`) })),
    )
    const bridge = fetchBridge(hono)
    server = http.createServer(bridge)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    port = await listenOn(server)
  })
  afterAll(() => closeServer(server))

  it('upgrades through global Express middleware that hands on', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/open`)
    expect(await client.next()).toBe('hello')
    expect(client.headers['x-seen-by']).toBe('express')
    client.ws.close()
    await client.closed
  })

  it("refuses with the guard's status and headers when there is no session, and never opens", async () => {
    const answer = await rawUpgrade(port, '/private/chat')
    expect(answer.status).toBe(401)
    expect(answer.headers['www-authenticate']).toBe('Session realm="chat"')
    expect(answer.closedByServer).toBe(true)
  })

  it('reads the session express-session loads from the cookie a login over HTTP set', async () => {
    const login = await fetch(`http://127.0.0.1:${port}/login`, { method: 'POST' })
    expect(login.status).toBe(200)
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    const client = await connect(`ws://127.0.0.1:${port}/private/chat`, { headers: { cookie } })
    expect(await client.next()).toBe('welcome alice')
    client.ws.close()
    await client.closed
  })
})
