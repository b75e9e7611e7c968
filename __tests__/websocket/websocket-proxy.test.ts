import http, { type Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { createProxyMiddleware } from 'http-proxy-middleware'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, listenOn } from '../helpers/websocket.js'

// http-proxy-middleware with ws: true, its upgrade listener added after attaching: upgrades under
// its path reach the upstream ws server through the proxy, Hono keeps its own route.
describe('a proxied upgrade next to a Hono route', () => {
  let upstream: Server
  let upstreamWss: WebSocketServer
  let server: Server
  let port: number

  beforeAll(async () => {
    upstream = http.createServer()
    upstreamWss = new WebSocketServer({ server: upstream })
    upstreamWss.on('connection', (ws, req) => ws.on('message', (data) => ws.send(`upstream ${req.url}:${data}`)))
    const upstreamPort = await listenOn(upstream)

    const hono = new Hono()
    hono.get('/chat', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(`hono:${evt.data}`) })))
    const proxy = createProxyMiddleware({ target: `http://127.0.0.1:${upstreamPort}`, ws: true, pathFilter: '/feed' })
    const app = express()
    const bridge = fetchBridge(hono)
    app.use(bridge)
    app.use(proxy)
    server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    server.on('upgrade', proxy.upgrade)
    port = await listenOn(server)
  })
  afterAll(async () => {
    upstreamWss.close()
    for (const ws of upstreamWss.clients) ws.terminate()
    await closeServer(server)
    await closeServer(upstream)
  })

  it('proxies /feed to the upstream ws server and serves /chat from Hono', async () => {
    const feed = await connect(`ws://127.0.0.1:${port}/feed?x=1`)
    const chat = await connect(`ws://127.0.0.1:${port}/chat`)
    feed.ws.send('a')
    chat.ws.send('b')
    expect(await feed.next()).toBe('upstream /feed?x=1:a')
    expect(await chat.next()).toBe('hono:b')
    feed.ws.close(4000, 'done')
    chat.ws.close()
    expect((await feed.closed).code).toBe(4000)
    await chat.closed
  })
})
