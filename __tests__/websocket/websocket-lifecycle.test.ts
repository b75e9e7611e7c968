import http, { type Server } from 'node:http'
import net from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import WebSocket, { WebSocketServer } from 'ws'
import { fetchBridge } from '../../src/index.js'
import { attachWebSockets, upgradeWebSocket, type WebSocketAttachment } from '../../src/websocket.js'
import { closeServer, connect, listenOn, until } from '../helpers/websocket.js'

interface Setup {
  server: Server
  port: number
  attachment: WebSocketAttachment
  hono: Hono
  wss: WebSocketServer
}

async function setup(configure: (hono: Hono) => void, wssOptions: WebSocket.ServerOptions = {}): Promise<Setup> {
  const hono = new Hono()
  configure(hono)
  const app = express()
  const bridge = fetchBridge(hono)
  app.use(bridge)
  const server = http.createServer(app)
  const wss = new WebSocketServer({ noServer: true, ...wssOptions })
  const attachment = attachWebSockets(server, bridge, { wss })
  const port = await listenOn(server)
  return { server, port, attachment, hono, wss }
}

describe('WebSocket lifecycle', () => {
  it('reports backpressure in bufferedAmount while the client does not read, and delivers everything', async () => {
    const peaks: number[] = []
    const chunk = new Uint8Array(1 << 20)
    const { server, port } = await setup((hono) => {
      hono.get('/flood', upgradeWebSocket(() => ({
        onMessage(_evt, ws) {
          for (let i = 0; i < 32; i++) ws.send(chunk)
          peaks.push((ws as unknown as { bufferedAmount: number }).bufferedAmount, ws.raw!.bufferedAmount)
          ws.send('end')
        },
      })))
    })
    const client = await connect(`ws://127.0.0.1:${port}/flood`)
    client.ws.pause()
    client.ws.send('go')
    await until(() => peaks.length > 0)
    expect(peaks[0]).toBeGreaterThan(1 << 20)
    expect(peaks[1]).toBe(peaks[0])
    client.ws.resume()
    let bytes = 0
    for (;;) {
      const message = await client.next()
      if (message === 'end') break
      bytes += (message as Buffer).length
    }
    expect(bytes).toBe(32 << 20)
    client.ws.close()
    await client.closed
    await closeServer(server)
  })

  it('closes every Hono socket with 1001 on server.close(), so close() completes', async () => {
    const closes: number[] = []
    const { server, port, attachment } = await setup((hono) => {
      hono.get('/s', upgradeWebSocket(() => ({ onClose: (evt) => closes.push((evt as CloseEvent).code) })))
    })
    const clients = await Promise.all([1, 2, 3].map(() => connect(`ws://127.0.0.1:${port}/s`)))
    expect(attachment.connections).toBe(3)
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    const codes = await Promise.all(clients.map((c) => c.closed))
    await closed
    expect(codes).toEqual([1, 2, 3].map(() => ({ code: 1001, reason: 'Server closing' })))
    await until(() => closes.length === 3)
    expect(closes).toEqual([1001, 1001, 1001])
    expect(attachment.connections).toBe(0)
  })

  it('sends protocol errors (an oversized message) to onError, then onClose', async () => {
    const events: string[] = []
    const { server, port } = await setup((hono) => {
      hono.get('/small', upgradeWebSocket(() => ({
        onError: (evt) => events.push(`error ${(evt as ErrorEvent).error instanceof Error}`),
        onClose: (evt) => events.push(`close ${(evt as CloseEvent).code}`),
      })))
    }, { maxPayload: 16 })
    const client = await connect(`ws://127.0.0.1:${port}/small`)
    client.ws.send('x'.repeat(64))
    expect((await client.closed).code).toBe(1009)
    await until(() => events.length === 2)
    // The server stops reading after the error, so it never sees the client's close frame: 1006.
    expect(events).toEqual(['error true', 'close 1006'])
    await closeServer(server)
  })

  it('leaks no listener per connection', async () => {
    const { server, port, wss } = await setup((hono) => {
      hono.get('/e', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(String(evt.data)) })))
    })
    const counts = () => [server.listenerCount('upgrade'), server.listenerCount('close'), server.listenerCount('removeListener'), wss.listenerCount('headers'), wss.listenerCount('connection')]
    const before = counts()
    for (let i = 0; i < 20; i++) {
      const client = await connect(`ws://127.0.0.1:${port}/e`)
      client.ws.send('x')
      await client.next()
      if (i % 2 === 0) client.ws.close()
      else client.ws.terminate()
      await client.closed
    }
    await until(() => wss.clients.size === 0)
    expect(counts()).toEqual(before)
    await closeServer(server)
  })

  it('drops an upgrade whose client leaves while middleware decides: no open, no error', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const opened: number[] = []
    const { server, port, attachment } = await setup((hono) => {
      hono.use(async (_c, next) => {
        await gate
        await next()
      })
      hono.get('/slow', upgradeWebSocket(() => ({ onOpen: () => opened.push(1) })))
    })
    const socket = net.connect(port, '127.0.0.1')
    socket.write(`GET /slow HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    socket.resetAndDestroy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    release()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(opened).toEqual([])
    expect(attachment.connections).toBe(0)
    await closeServer(server)
  })

  it('gives the server back its upgrade handling on detach()', async () => {
    const { server, port, attachment } = await setup((hono) => {
      hono.get('/d', upgradeWebSocket(() => ({})))
    })
    attachment.detach()
    expect(server.listenerCount('upgrade')).toBe(0)
    // Without a dispatcher Node hands the upgrade to Express as a plain request; Hono says so.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.get(`http://127.0.0.1:${port}/d`, { headers: { upgrade: 'websocket', connection: 'Upgrade' } }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      req.on('upgrade', () => reject(new Error('upgraded')))
      req.on('error', reject)
    })
    expect(status).toBe(501)
    await closeServer(server)
  })
})
