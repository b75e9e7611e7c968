import type { Server } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'
import { closeServer, connect, until } from '../helpers/websocket.js'

// Messages in both directions, close codes and reasons, and errors, for a Hono route served through
// a bridge mounted in Express (app.listen()).
describe('WebSocket messages through the bridge', () => {
  let server: Server
  let port: number
  const seen: { closes: { code: number; reason: string; wasClean: boolean }[]; errors: unknown[]; opens: string[] } = {
    closes: [],
    errors: [],
    opens: [],
  }

  const wss = new WebSocketServer({ noServer: true })
  const connections: string[] = []

  beforeAll(async () => {
    const hono = new Hono()
    hono.get(
      '/echo',
      upgradeWebSocket((c) => ({
        onOpen(_evt, ws) {
          seen.opens.push(`${ws.url?.pathname} ${c.req.query('room')} ${JSON.stringify(ws.protocol)}`)
        },
        onMessage(evt, ws) {
          if (evt.data === 'bye') return ws.close(4001, 'asked to leave')
          if (evt.data === 'throw') throw new Error('handler threw')
          if (evt.data === 'reject') return Promise.reject(new Error('handler rejected')) as never
          if (evt.data === 'blob') {
            ws.binaryType = 'blob'
            return
          }
          if (typeof evt.data === 'string') return ws.send(`echo:${evt.data}`)
          if (evt.data instanceof Blob) {
            void evt.data.arrayBuffer().then((buf) => ws.send(new Uint8Array([0xb1, ...new Uint8Array(buf)])))
            return
          }
          const bytes = new Uint8Array(evt.data as ArrayBuffer)
          ws.send(new Uint8Array([bytes.length, ...bytes]))
        },
        onClose(evt) {
          const e = evt as CloseEvent
          seen.closes.push({ code: e.code, reason: e.reason, wasClean: e.wasClean })
        },
      }), { onError: (err) => seen.errors.push(err) }),
    )
    hono.get('/direct', (c) => upgradeWebSocket(c, { onOpen: (_evt, ws) => ws.send('direct form') }))
    const app = express()
    const bridge = fetchBridge(hono)
    app.use('/api', bridge)
    server = app.listen(0)
    wss.on('connection', (_ws, req) => connections.push(req.url ?? ''))
    attachWebSockets(server, bridge, { wss })
    port = await new Promise<number>((resolve) => server.once('listening', () => resolve((server.address() as { port: number }).port)))
  })
  afterAll(() => closeServer(server))

  it('echoes text and reports the stripped URL, query and subprotocol to the route', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo?room=7`, { protocols: ['chat.v1'] })
    client.ws.send('hello')
    expect(await client.next()).toBe('echo:hello')
    expect(seen.opens).toContain('/echo 7 "chat.v1"')
    client.ws.close()
    await client.closed
  })

  it("gives ws.protocol as '' when the client asked for no subprotocol, as @hono/node-ws does", async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo?room=none`)
    client.ws.send('hello')
    expect(await client.next()).toBe('echo:hello')
    expect(seen.opens).toContain('/echo none ""')
    client.ws.close()
    await client.closed
  })

  it('passes binary both ways as ArrayBuffer, or as Blob once the route sets binaryType', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.send(Buffer.from([1, 2, 3]))
    expect(await client.next()).toEqual(Buffer.from([3, 1, 2, 3]))
    client.ws.send('blob')
    client.ws.send(Buffer.from([9, 8]))
    expect(await client.next()).toEqual(Buffer.from([0xb1, 9, 8]))
    client.ws.close()
    await client.closed
  })

  it('keeps a UTF-8 text message intact, however ws fragments it', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    const text = 'ünïcödé ✓ '.repeat(5000)
    client.ws.send(text, { fin: false })
    client.ws.send('!', { fin: true })
    expect(await client.next()).toBe(`echo:${text}!`)
    client.ws.close()
    await client.closed
  })

  it('closes with the route\'s code and reason, and reports them to onClose', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.send('bye')
    expect(await client.closed).toEqual({ code: 4001, reason: 'asked to leave' })
    await until(() => seen.closes.some((c) => c.code === 4001))
    expect(seen.closes).toContainEqual({ code: 4001, reason: 'asked to leave', wasClean: true })
  })

  it('reports the client\'s close code and reason to onClose', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.close(4321, 'client done')
    await client.closed
    await until(() => seen.closes.some((c) => c.code === 4321))
    expect(seen.closes).toContainEqual({ code: 4321, reason: 'client done', wasClean: true })
  })

  it('reports a client that disconnects without a close frame as 1006', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    const before = seen.closes.filter((c) => c.code === 1006).length
    client.ws.terminate()
    await until(() => seen.closes.filter((c) => c.code === 1006).length > before)
    expect(seen.closes.at(-1)).toEqual({ code: 1006, reason: '', wasClean: false })
  })

  it('sends what a handler throws or rejects with to onError and keeps the socket open', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/echo`)
    client.ws.send('throw')
    client.ws.send('reject')
    client.ws.send('still here')
    expect(await client.next()).toBe('echo:still here')
    await until(() => seen.errors.length >= 2)
    expect(seen.errors.map((e) => (e as Error).message)).toEqual(['handler threw', 'handler rejected'])
    client.ws.close()
    await client.closed
  })

  it('supports the upgradeWebSocket(c, events) form and fires the ws server\'s connection event', async () => {
    const client = await connect(`ws://127.0.0.1:${port}/api/direct`)
    expect(await client.next()).toBe('direct form')
    expect(connections).toContain('/api/direct')
    client.ws.close()
    await client.closed
  })
})
