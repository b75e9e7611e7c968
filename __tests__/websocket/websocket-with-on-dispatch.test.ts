import { createServer, type Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, listenOn } from '../helpers/websocket.js'

// A bridge built with onDispatch is a wrapper around the plain one: upgrades must still follow its
// app and mount path.
describe('attachWebSockets on a bridge with onDispatch', () => {
  let server: Server
  let port: number

  beforeAll(async () => {
    const hono = new Hono()
    hono.get('/echo', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(`echo:${String(evt.data)}`) })))
    const app = express()
    const bridge = fetchBridge(hono, { onDispatch: () => {} })
    app.use('/api', bridge)
    server = createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    port = await listenOn(server)
  })
  afterAll(() => closeServer(server))

  it('serves the Hono route under the mount path', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.send('hi')
    expect(await client.next()).toBe('echo:hi')
    client.ws.close()
  })
})
