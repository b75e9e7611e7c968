import http, { type Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { Server as SocketIOServer } from 'socket.io'
import { io as ioClient, type Socket } from 'socket.io-client'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeAll, closeServer, connect, listenOn, rawUpgrade } from '../helpers/websocket.js'

function chat(): Hono {
  const hono = new Hono()
  hono.get('/chat', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(`hono:${evt.data}`) })))
  hono.get('/where', upgradeWebSocket((c) => ({ onOpen: (_evt, ws) => ws.send(c.req.url) })))
  return hono
}

function ioConnect(port: number, namespace: string, transports?: string[]): Promise<Socket> {
  const socket = ioClient(`http://127.0.0.1:${port}${namespace}`, { transports, reconnection: false, forceNew: true })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

function ioEcho(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => socket.emit('say', text, (answer: string) => resolve(answer)))
}

describe('Hono routes and a legacy socket.io namespace on one Express server', () => {
  let server: Server
  let port: number
  let io: SocketIOServer
  const legacySeen: string[] = []

  beforeAll(async () => {
    const app = express()
    const bridge = fetchBridge(chat())
    app.use('/api', bridge)
    app.get('/legacy', (_req, res) => res.send('express'))
    server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    // Added after attaching: socket.io keeps every upgrade Hono has no route for.
    io = new SocketIOServer(server)
    io.of('/legacy-chat').on('connection', (socket) => {
      socket.on('say', (text: string, ack: (a: string) => void) => ack(`io:${text}`))
    })
    server.on('upgrade', (req) => legacySeen.push(req.url ?? ''))
    port = await listenOn(server)
  })
  afterAll(async () => {
    io.close()
    await closeServer(server)
  })

  it('serves the Hono chat route and never shows its upgrade to the legacy listeners', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/chat`)
    client.ws.send('hi')
    expect(await client.next()).toBe('hono:hi')
    expect(legacySeen).not.toContain('/api/chat')
    client.ws.close()
    await client.closed
  })

  it('leaves socket.io its namespace, over a direct WebSocket and over polling upgraded to WebSocket', async () => {
    for (const transports of [['websocket'], undefined]) {
      const socket = await ioConnect(port, '/legacy-chat', transports)
      if (socket.io.engine.transport.name !== 'websocket') await new Promise((resolve) => socket.io.engine.once('upgrade', resolve))
      expect(socket.io.engine.transport.name).toBe('websocket')
      expect(await ioEcho(socket, 'hello')).toBe('io:hello')
      socket.close()
    }
    expect(legacySeen.some((url) => url.startsWith('/socket.io/'))).toBe(true)
  })

  it('keeps HTTP routes of both apps working', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/legacy`)
    expect(await res.text()).toBe('express')
  })
})

describe('a legacy ws server on another path', () => {
  let server: Server
  let port: number
  let legacy: WebSocketServer

  beforeAll(async () => {
    const app = express()
    const bridge = fetchBridge(chat())
    app.use(bridge)
    server = app.listen(0)
    legacy = new WebSocketServer({ server, path: '/legacy-ws' })
    legacy.on('connection', (ws) => ws.on('message', (data) => ws.send(`ws:${data}`)))
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    await new Promise((resolve) => server.once('listening', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    legacy.close()
    await closeServer(server)
  })

  it('serves both: Hono at /chat, the legacy ws server at its path', async () => {
    const hono = await connect(`ws://127.0.0.1:${port}/chat`)
    const old = await connect(`ws://127.0.0.1:${port}/legacy-ws`)
    hono.ws.send('a')
    old.ws.send('b')
    expect(await hono.next()).toBe('hono:a')
    expect(await old.next()).toBe('ws:b')
    await closeAll(hono, old)
  })

  it('lets the legacy listener answer unknown paths as it always did (ws: 400)', async () => {
    const answer = await rawUpgrade(port, '/nowhere')
    expect(answer.status).toBe(400)
  })
})

describe('upgrades nobody takes', () => {
  let server: Server
  let port: number

  beforeAll(async () => {
    const bridge = fetchBridge(chat(), { fallback: express() })
    server = bridge.listen(0)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    await new Promise((resolve) => server.once('listening', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(() => closeServer(server))

  it('answers an unknown path with a clean 404 and closes the socket', async () => {
    const answer = await rawUpgrade(port, '/nowhere')
    expect(answer.status).toBe(404)
    expect(answer.headers.connection).toBe('close')
    expect(answer.headers['content-length']).toBe('0')
    expect(answer.closedByServer).toBe(true)
  })

  it('answers an upgrade to another protocol with 400 and closes the socket', async () => {
    const answer = await rawUpgrade(port, '/chat', { upgrade: 'h2c' })
    expect(answer.status).toBe(400)
    expect(answer.closedByServer).toBe(true)
  })

  it('serves Hono routes from front-door listen()', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/chat`)
    client.ws.send('front')
    expect(await client.next()).toBe('hono:front')
    client.ws.close()
    await client.closed
  })
})

describe('the same URL rules as HTTP', () => {
  it.each([
    ['strip', '/api/where?x=1', '/where?x=1'],
    ['keep', '/api/where?x=1', '/api/where?x=1'],
  ] as const)('mountPath %s: %s reaches Hono as %s', async (mountPath, path, expected) => {
    const hono = new Hono()
    hono.get(mountPath === 'keep' ? '/api/where' : '/where', upgradeWebSocket((c) => ({ onOpen: (_e, ws) => ws.send(c.req.url) })))
    const app = express()
    const bridge = fetchBridge(hono, { mountPath })
    app.use('/api', bridge)
    const server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    const port = await listenOn(server)
    const client = await connect(`ws://127.0.0.1:${port}${path}`)
    expect(await client.next()).toBe(`http://127.0.0.1:${port}${expected}`)
    client.ws.close()
    await client.closed
    await closeServer(server)
  })

  it('follows trust proxy for the origin, and a fixed origin when the bridge has one', async () => {
    const app = express()
    app.set('trust proxy', true)
    const trusting = fetchBridge(chat())
    const fixed = fetchBridge(chat(), { origin: 'https://api.example.com' })
    const router = express.Router()
    router.use(fixed)
    app.use('/t', trusting)
    app.use('/f', router)
    const server = http.createServer(app)
    attachWebSockets(server, trusting, { wss: new WebSocketServer({ noServer: true }) })
    attachWebSockets(server, fixed, { wss: new WebSocketServer({ noServer: true }) })
    const port = await listenOn(server)
    const forwarded = { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example.com' } }
    const a = await connect(`ws://127.0.0.1:${port}/t/where`, forwarded)
    const b = await connect(`ws://127.0.0.1:${port}/f/where`, forwarded)
    expect(await a.next()).toBe('https://public.example.com/where')
    expect(await b.next()).toBe('https://api.example.com/where')
    await closeAll(a, b)
    await closeServer(server)
  })

  it('answers 400 for an invalid Host, as over HTTP', async () => {
    const app = express()
    const bridge = fetchBridge(chat())
    app.use(bridge)
    const server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    const port = await listenOn(server)
    const answer = await rawUpgrade(port, '/chat', { host: 'bad host' })
    expect(answer.status).toBe(400)
    expect(answer.closedByServer).toBe(true)
    await closeServer(server)
  })
})

describe('telling attachWebSockets where the bridge is', () => {
  it('uses `app` when socket.io wrapped the request listener first, and `mountedAt` for a sub-app', async () => {
    const app = express()
    app.set('trust proxy', true)
    const sub = express()
    const bridge = fetchBridge(chat())
    sub.use(bridge)
    app.use('/v2', sub)
    const server = http.createServer(app)
    const io = new SocketIOServer(server) // replaces the request listener with its own wrapper
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }), app, mountedAt: '/v2' })
    const port = await listenOn(server)
    const client = await connect(`ws://127.0.0.1:${port}/v2/where`, { headers: { 'x-forwarded-host': 'public.example.com' } })
    expect(await client.next()).toBe('http://public.example.com/where')
    client.ws.close()
    await client.closed
    // Outside mountedAt the upgrade is not the bridge's: socket.io's listener answers it as before.
    const socket = await ioConnect(port, '/', ['websocket'])
    socket.close()
    io.close()
    await closeServer(server)
  })

  it('finds a bridge inside a mounted sub-app without mountedAt, with the sub-app\'s settings', async () => {
    const app = express()
    const sub = express()
    sub.set('trust proxy', true) // the sub-app's own setting: the parent does not trust proxies
    const bridge = fetchBridge(chat())
    sub.use('/api', bridge)
    app.use('/v1', sub)
    const server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
    const port = await listenOn(server)
    const client = await connect(`ws://127.0.0.1:${port}/v1/api/where`, { headers: { 'x-forwarded-host': 'public.example.com' } })
    expect(await client.next()).toBe('http://public.example.com/where')
    client.ws.close()
    await client.closed
    // The bridge is on the server, under /v1/api only: elsewhere the upgrade is nobody's.
    expect((await rawUpgrade(port, '/v2/api/where')).status).toBe(404)
    expect((await rawUpgrade(port, '/api/where')).status).toBe(404)
    await closeServer(server)
  })

  it('rejects a wss that is not in noServer mode, and a mountedAt that is not a path', () => {
    const server = http.createServer()
    const bridge = fetchBridge(chat())
    const listening = { options: { port: 0 }, handleUpgrade() {}, on() {}, off() {}, emit() {} } as never
    expect(() => attachWebSockets(server, bridge, { wss: listening })).toThrow(/noServer/)
    expect(() => attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }), mountedAt: 'api' })).toThrow(/mountedAt/)
    expect(() => attachWebSockets(server, bridge, undefined as never)).toThrow(/wss is required/)
  })
})
