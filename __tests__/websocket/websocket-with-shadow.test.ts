import { createServer, type Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { WebSocketServer } from 'ws'
import { fetchBridge, shadowTrial } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, listenOn } from '../helpers/websocket.js'

// A bridge under a shadow trial of every route wraps the plain one: WebSocket upgrades are left alone
// (served by the Hono route, never shadowed or sent to Express).
describe('attachWebSockets on a bridge with a shadow trial', () => {
  let server: Server
  let port: number
  const trial = shadowTrial({ routes: 'all' })

  beforeAll(async () => {
    const hono = new Hono()
    hono.get('/echo', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(`echo:${String(evt.data)}`) })))
    const app = express()
    const bridge = fetchBridge(hono, { shadow: trial })
    app.use('/api', bridge)
    server = createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    port = await listenOn(server)
  })
  afterAll(() => closeServer(server))

  it('serves the Hono route under the mount path, and the trial does not see it', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.send('hi')
    expect(await client.next()).toBe('echo:hi')
    client.ws.close()
    expect(trial.stats()).toEqual([])
  })
})
