import http, { type Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, listenOn, rawUpgrade } from '../helpers/websocket.js'

// Hono middleware runs for upgrades as it does for requests; an answer other than the upgrade
// refuses it with that status and those headers.
describe('authenticating an upgrade with Hono middleware', () => {
  let server: Server
  let port: number
  const opened: string[] = []

  beforeAll(async () => {
    const hono = new Hono<{ Variables: { user: string } }>()
    hono.use('/private/*', async (c, next) => {
      await new Promise((resolve) => setImmediate(resolve)) // an asynchronous session lookup
      const user = getCookie(c, 'sid') === 'good' ? 'alice' : c.req.header('authorization') === 'Bearer t0k' ? 'bob' : undefined
      if (user === undefined) {
        return c.text('no', 401, { 'www-authenticate': 'Bearer realm="chat"', 'x-reason': 'no session' })
      }
      c.set('user', user)
      await next()
      c.header('set-cookie', 'seen=1; Path=/')
    })
    hono.get('/private/chat', upgradeWebSocket((c) => ({
      onOpen: (_evt, ws) => {
        opened.push(c.get('user'))
        ws.send(`welcome ${c.get('user')}`)
      },
    })))
    const app = express()
    const bridge = fetchBridge(hono)
    app.use(bridge)
    server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    port = await listenOn(server)
  })
  afterAll(() => closeServer(server))

  it('refuses without credentials: the middleware\'s 401 and its headers, written raw, then the socket closed', async () => {
    const answer = await rawUpgrade(port, '/private/chat')
    expect(answer.status).toBe(401)
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="chat"')
    expect(answer.headers['x-reason']).toBe('no session')
    expect(answer.headers.connection).toBe('close')
    expect(answer.headers.upgrade).toBeUndefined()
    expect(answer.closedByServer).toBe(true)
    expect(opened).toEqual([])
  })

  it('upgrades with a session cookie, with the headers middleware added on the 101', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/private/chat`, { headers: { cookie: 'sid=good' } })
    expect(await client.next()).toBe('welcome alice')
    expect(client.headers['set-cookie']).toEqual(['seen=1; Path=/'])
    client.ws.close()
    await client.closed
  })

  it('upgrades with an Authorization header', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/private/chat`, { headers: { authorization: 'Bearer t0k' } })
    expect(await client.next()).toBe('welcome bob')
    client.ws.close()
    await client.closed
    expect(opened).toEqual(['alice', 'bob'])
  })
})
