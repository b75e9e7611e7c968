import http, { type Server } from 'node:http'
import { Hono } from 'hono'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { expressVersions } from '../helpers/express-versions.js'
import { closeServer, connect, listenOn, rawUpgrade, until } from '../helpers/websocket.js'

// The legacy upgrade listeners behind an asynchronous Hono decision, and the server's listener list.
describe.each(expressVersions)('legacy upgrade listeners (%s)', (_name, express) => {
  let server: Server
  let port: number
  const reported: unknown[] = []
  const legacy = new WebSocketServer({ noServer: true })
  legacy.on('connection', (ws) => ws.on('message', (data) => ws.send(`legacy:${data}`)))

  beforeAll(async () => {
    const hono = new Hono()
    hono.use(async (_c, next) => {
      await new Promise((resolve) => setImmediate(resolve)) // every decision is asynchronous
      await next()
    })
    hono.get('/hono', upgradeWebSocket((c) => ({ onOpen: (_e, ws) => ws.send(`hono ${c.req.path} ${String(c.env.tenant)}`) })))
    const app = express()
    const bridge = fetchBridge(hono, { env: (req) => ({ tenant: req.headers['x-tenant'] }) })
    const router = express.Router()
    router.use(bridge)
    app.use('/v1', router)
    server = http.createServer(app)
    attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }), onError: (err) => reported.push(err) })
    server.on('upgrade', (req, socket, head) => {
      if (req.url === '/v1/throws') throw new Error('legacy listener threw')
      if (req.url?.startsWith('/v1/legacy')) legacy.handleUpgrade(req, socket, head, (ws) => legacy.emit('connection', ws, req))
    })
    port = await listenOn(server)
  })
  afterAll(async () => {
    for (const ws of legacy.clients) ws.terminate()
    await closeServer(server)
  })

  it('finds the bridge under a mounted Router and gives Hono the stripped path and the env bindings', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/v1/hono`, { headers: { 'x-tenant': 'acme' } })
    expect(await client.next()).toBe('hono /hono acme')
    client.ws.close()
    await client.closed
  })

  it('hands what Hono does not route to the legacy listener after the asynchronous decision', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/v1/legacy`)
    client.ws.send('x')
    expect(await client.next()).toBe('legacy:x')
    client.ws.close()
    await client.closed
  })

  it('reports a legacy listener that throws after an asynchronous decision and closes the socket', async () => {
    const answer = await rawUpgrade(port, '/v1/throws')
    expect(answer.closedByServer).toBe(true)
    await until(() => reported.length > 0)
    expect((reported[0] as Error).message).toBe('legacy listener threw')
    reported.length = 0
  })

  it('keeps dispatching after someone removes every upgrade listener', async () => {
    const listeners = server.rawListeners('upgrade')
    server.removeAllListeners('upgrade')
    await new Promise((resolve) => process.nextTick(resolve))
    expect((await rawUpgrade(port, '/v1/legacy')).status).toBe(404)
    const client = await connect(`ws://127.0.0.1:${port}/v1/hono`)
    expect(await client.next()).toBe('hono /hono undefined')
    client.ws.close()
    await client.closed
    for (const fn of listeners) if (!server.listeners('upgrade').includes(fn as never)) server.on('upgrade', fn as never)
  })
})
