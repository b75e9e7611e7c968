import http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { DEFAULT_DRAIN } from '../../src/request/drain.js'
import { listen, parseHead, raw, request, type Running } from '../helpers/transport.js'

// An app may answer before reading the request body (413, 401, a redirect). The client must get that
// answer rather than a reset, and its kept-alive connection must stay usable for the next request.

const MiB = 1024 * 1024

const hono = new Hono()
hono.post('/too-large', (c) => c.text('Payload Too Large', 413))
hono.post('/async-too-large', async (c) => {
  await new Promise((resolve) => setTimeout(resolve, 5))
  return c.text('Payload Too Large', 413)
})
hono.post('/one-chunk', async (c) => {
  // Reads a single chunk, then answers and never touches the body again (nor cancels it).
  const reader = c.req.raw.body!.getReader()
  const { value } = await reader.read()
  return c.text(`first chunk ${value!.byteLength > 0}`)
})
hono.get('/after', (c) => c.text('after'))

interface Reply {
  status: number
  body: string
  localPort: number
}

async function send(agent: http.Agent, port: number, method: string, path: string, body?: Buffer): Promise<Reply> {
  const { res, body: bytes, localPort } = await request(`http://127.0.0.1:${port}${path}`, { agent, method }, body)
  return { status: res.statusCode!, body: bytes.toString(), localPort }
}

describe.each([
  ['node:http', () => { const b = fetchBridge(hono); return (req: http.IncomingMessage, res: http.ServerResponse) => b(req, res) }],
  ['Express', () => { const app = express(); app.use(fetchBridge(hono)); return app }],
])('under %s', (_name, make) => {
  let server: Running
  let connections = 0
  let agent: http.Agent
  beforeAll(async () => {
    server = await listen(make())
    server.server.on('connection', () => connections++)
  })
  beforeEach(() => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    connections = 0
  })
  afterEach(() => agent.destroy())
  afterAll(() => server.close())

  it.each(['/too-large', '/async-too-large'])('POST %s with 1 MiB: the client gets 413, the next request reuses the connection', async (path) => {
    const first = await send(agent, server.port, 'POST', path, Buffer.alloc(MiB, 97))
    expect(first.status).toBe(413)
    expect(first.body).toBe('Payload Too Large')
    const second = await send(agent, server.port, 'GET', '/after')
    expect(second.status).toBe(200)
    expect(second.body).toBe('after')
    expect(second.localPort).toBe(first.localPort)
    expect(connections).toBe(1)
  })

  it('an app that read one chunk and left the rest: the connection is not stuck', async () => {
    const first = await send(agent, server.port, 'POST', '/one-chunk', Buffer.alloc(MiB, 97))
    expect(first.status).toBe(200)
    expect(first.body).toBe('first chunk true')
    const second = await send(agent, server.port, 'GET', '/after')
    expect(second.body).toBe('after')
    expect(second.localPort).toBe(first.localPort)
    expect(connections).toBe(1)
  })
})

describe('bounds of the drain', () => {
  let server: Running
  beforeAll(async () => {
    const bridge = fetchBridge(hono)
    server = await listen((req, res) => bridge(req, res))
  })
  afterAll(() => server.close())

  it('bounds are a few MiB and a few seconds', () => {
    expect(DEFAULT_DRAIN.maxBytes).toBeGreaterThanOrEqual(MiB)
    expect(DEFAULT_DRAIN.maxBytes).toBeLessThanOrEqual(16 * MiB)
    expect(DEFAULT_DRAIN.maxMs).toBeGreaterThanOrEqual(1000)
    expect(DEFAULT_DRAIN.maxMs).toBeLessThanOrEqual(10000)
  })

  it('a client that keeps sending past the byte bound gets the 413, then the connection is closed', async () => {
    const declared = 64 * MiB
    const chunk = Buffer.alloc(64 * 1024, 97)
    let sent = 0
    const result = await raw(server.port, (socket) => {
      socket.write(`POST /too-large HTTP/1.1\r\nHost: test\r\nContent-Length: ${declared}\r\n\r\n`)
      const pump = () => {
        while (sent < declared && !socket.destroyed) {
          sent += chunk.length
          if (!socket.write(chunk)) return void socket.once('drain', pump)
        }
      }
      pump()
    })
    const head = parseHead(result.data)
    expect(head.status).toBe(413)
    expect(head.rest.toString()).toBe('Payload Too Large')
    // The server stopped reading long before the declared 64 MiB.
    expect(sent).toBeLessThan(declared)
    expect(result.ended).not.toBe('open')
  })

  it('a client that trickles its body gets the 413, then the connection is closed after the time bound', async () => {
    // Never idle long enough for Node's own socket timeouts: only the drain's time bound can end it.
    const started = Date.now()
    let trickle: NodeJS.Timeout | undefined
    const result = await raw(server.port, (socket) => {
      socket.write(`POST /too-large HTTP/1.1\r\nHost: test\r\nContent-Length: ${10 * MiB}\r\n\r\n`)
      trickle = setInterval(() => socket.destroyed || socket.write(Buffer.alloc(1024, 97)), 200)
    })
    clearInterval(trickle)
    const elapsed = Date.now() - started
    const head = parseHead(result.data)
    expect(head.status).toBe(413)
    expect(result.ended).toBe('close')
    expect(elapsed).toBeGreaterThanOrEqual(DEFAULT_DRAIN.maxMs - 100)
    expect(elapsed).toBeLessThan(DEFAULT_DRAIN.maxMs + 5000)
  }, DEFAULT_DRAIN.maxMs + 15000)

  it('the server still serves after cutting such connections', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/after`)
    expect(await res.text()).toBe('after')
  })
})
