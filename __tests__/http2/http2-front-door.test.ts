import http2 from 'node:http2'
import https from 'node:https'
import tls from 'node:tls'
import express from 'express'
import { Hono } from 'hono'
import { stream, streamSSE } from 'hono/streaming'
import { getConnInfo } from '@hono/node-server/conninfo'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { connect, h2Fetch, h2Request, listenH2, testCertificate, type H2Server } from '../helpers/h2.js'
import { waitFor } from '../helpers/transport.js'
import { connect as wsConnect } from '../helpers/websocket.js'
import { WebSocketServer } from 'ws'
import { attachWebSockets, upgradeWebSocket } from '../../src/websocket.js'

// The front door and the bare listener on node:http2, h2 over TLS (allowHTTP1) and cleartext h2c:
// Hono routes on the fast path, the Express fallback, and what the fast path does on HTTP/1.1.

const { key, cert } = testCertificate()
const aborted: string[] = []

function apps() {
  const hono = new Hono<{ Bindings: HttpBindings }>()
  hono.get('/text', (c) => c.text(`hello ${c.req.header('host')} ${new URL(c.req.url).protocol}`))
  hono.post('/echo', async (c) => c.text(`echo:${await c.req.text()}`))
  hono.post('/count', async (c) => {
    // Streamed, not buffered: the upload is read chunk by chunk.
    let n = 0
    const reader = c.req.raw.body!.getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.byteLength
    return c.json({ n })
  })
  hono.get('/big', (c) => c.body(new Uint8Array(4 * 1024 * 1024).fill(97)))
  hono.get('/stream', (c) =>
    stream(c, async (s) => {
      for (let i = 0; i < 64; i++) await s.write(new Uint8Array(64 * 1024).fill(48 + (i % 10)))
    }),
  )
  hono.get('/sse', (c) =>
    streamSSE(c, async (s) => {
      await s.writeSSE({ data: 'one' })
      // The second event only after the client saw the first: flushed per event.
      await new Promise((resolve) => setTimeout(resolve, 50))
      await s.writeSSE({ data: 'two' })
    }),
  )
  hono.get('/hang', (c) => {
    c.req.raw.signal.addEventListener('abort', () => aborted.push('hang'))
    return stream(c, async (s) => {
      await s.write('first')
      await new Promise((resolve) => c.req.raw.signal.addEventListener('abort', resolve))
    })
  })
  hono.get('/conn', (c) => c.json(getConnInfo(c).remote))
  hono.get('/hints', (c) => {
    c.env.outgoing.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
    return c.text('after hints')
  })
  hono.get('/trailers', (c) => {
    c.env.outgoing.addTrailers({ 'x-checksum': 'abc' })
    return c.text('with trailers')
  })
  hono.get('/empty', (c) => c.body(null, 204))
  // Reads every body, then lets unmatched requests fall through: Express still gets the whole body.
  hono.use('/legacy-json', async (c, next) => {
    if (c.req.method === 'POST') await c.req.text()
    await next()
  })
  hono.get('/statustext', () => new Response('teapot', { status: 418, statusText: "I'm a teapot" }))
  hono.get('/hop', (c) => c.text('hop', 200, { connection: 'x-hop, close', 'x-hop': '1', 'keep-alive': 'timeout=5', 'x-kept': 'yes' }))
  const legacy = express()
  legacy.use(express.json())
  legacy.get('/legacy', (req, res) => res.send(`legacy ${req.hostname} ${req.protocol} ${req.httpVersion}`))
  legacy.post('/legacy-json', (req, res) => res.json({ body: req.body, pseudo: Object.keys(req.headers).filter((h) => h.startsWith(':')) }))
  return { hono, legacy }
}

describe.each([
  ['h2 over TLS (allowHTTP1)', true, true],
  ['h2c', false, true],
  ['h2 over TLS, bare listener', true, false],
])('%s', (_name, secure, withFallback) => {
  let srv: H2Server
  beforeAll(async () => {
    const { hono, legacy } = apps()
    const handler = fetchBridge(hono, withFallback ? { fallback: legacy } : {}) as unknown as (
      req: http2.Http2ServerRequest,
      res: http2.Http2ServerResponse,
    ) => void
    srv = await listenH2(
      secure ? http2.createSecureServer({ key, cert, allowHTTP1: true }, handler) : http2.createServer(handler),
      secure,
    )
  })
  afterAll(() => srv.close())

  it('serves a Hono route: exact Content-Length, Host from :authority, the scheme of the connection', async () => {
    const res = await h2Fetch(srv.origin, { ':path': '/text' })
    const expected = `hello 127.0.0.1:${srv.port} ${secure ? 'https' : 'http'}:`
    expect(res.status).toBe(200)
    expect(res.text).toBe(expected)
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(expected)))
  })

  it('answers HEAD with the GET length and no body, and 204 without framing', async () => {
    const head = await h2Fetch(srv.origin, { ':method': 'HEAD', ':path': '/text' })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(`hello 127.0.0.1:${srv.port} ${secure ? 'https' : 'http'}:`)))
    const empty = await h2Fetch(srv.origin, { ':path': '/empty' })
    expect(empty.status).toBe(204)
    expect(empty.headers['content-length']).toBeUndefined()
  })

  it('reads a request body framed only by DATA frames, and one with Content-Length', async () => {
    expect((await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/echo' }, 'data frames')).text).toBe('echo:data frames')
    const withLength = await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/echo', 'content-length': '4' }, 'four')
    expect(withLength.text).toBe('echo:four')
  })

  it('streams a large upload and a large download with flow control (beyond the 64 KiB window)', async () => {
    const upload = Buffer.alloc(3 * 1024 * 1024 + 7, 1)
    const counted = await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/count' }, upload)
    expect(JSON.parse(counted.text)).toEqual({ n: upload.length })
    const big = await h2Fetch(srv.origin, { ':path': '/big' })
    expect(big.body.length).toBe(4 * 1024 * 1024)
    expect(big.headers['content-length']).toBe(String(4 * 1024 * 1024))
    const streamed = await h2Fetch(srv.origin, { ':path': '/stream' })
    expect(streamed.body.length).toBe(64 * 64 * 1024)
    expect(streamed.body[64 * 1024 * 10]).toBe(48)
  })

  it('serves many concurrent streams on one connection', async () => {
    const session = await connect(srv.origin)
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => h2Request(session, { ':method': 'POST', ':path': '/echo' }, `n${i}`)),
      )
      expect(answers.map((a) => a.text)).toEqual(Array.from({ length: 50 }, (_, i) => `echo:n${i}`))
    } finally {
      session.close()
    }
  })

  it('sends SSE per event, without the Transfer-Encoding and Connection headers streamSSE sets', async () => {
    const session = await connect(srv.origin)
    try {
      const req = session.request({ ':path': '/sse' })
      const head = await new Promise<http2.IncomingHttpHeaders>((resolve) => req.once('response', resolve))
      expect(head[':status']).toBe(200)
      expect(head['content-type']).toBe('text/event-stream')
      expect(head['transfer-encoding']).toBeUndefined()
      expect(head.connection).toBeUndefined()
      req.setEncoding('utf8')
      let text = ''
      req.on('data', (chunk: string) => (text += chunk))
      // The first event arrives while the second is still 50 ms away.
      expect(await waitFor(() => text.includes('data: one'), 2000)).toBe(true)
      expect(text).not.toContain('two')
      await new Promise((resolve) => req.once('end', resolve))
      expect(text).toBe('data: one\n\ndata: two\n\n')
    } finally {
      session.close()
    }
  })

  it('aborts request.signal when the client resets the stream mid-body, and keeps the connection', async () => {
    aborted.length = 0
    const session = await connect(srv.origin)
    try {
      const req = session.request({ ':path': '/hang' })
      await new Promise((resolve) => req.once('data', resolve))
      req.close(http2.constants.NGHTTP2_CANCEL)
      expect(await waitFor(() => aborted.includes('hang'), 3000)).toBe(true)
      // The other streams of the session are not affected.
      expect((await h2Request(session, { ':path': '/text' })).status).toBe(200)
    } finally {
      session.close()
    }
  })

  it('gives the app getConnInfo, Early Hints and trailers', async () => {
    const conn = JSON.parse((await h2Fetch(srv.origin, { ':path': '/conn' })).text)
    expect(conn.address).toBe('127.0.0.1')
    expect(typeof conn.port).toBe('number')
    const session = await connect(srv.origin)
    try {
      const req = session.request({ ':path': '/hints' })
      const hints = new Promise<http2.IncomingHttpHeaders>((resolve) => req.once('headers', resolve))
      req.resume()
      expect((await hints)[':status']).toBe(103)
      expect((await hints).link).toBe('</style.css>; rel=preload; as=style')
      const withTrailers = await h2Request(session, { ':path': '/trailers' })
      expect(withTrailers.text).toBe('with trailers')
      expect(withTrailers.trailers?.['x-checksum']).toBe('abc')
    } finally {
      session.close()
    }
  })

  it('drops what HTTP/2 has no place for: a reason phrase, Connection and the fields it names, Keep-Alive', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.message)
    process.on('warning', onWarning)
    try {
      const teapot = await h2Fetch(srv.origin, { ':path': '/statustext' })
      expect(teapot.status).toBe(418)
      expect(teapot.text).toBe('teapot')
      const hop = await h2Fetch(srv.origin, { ':path': '/hop' })
      expect(hop.status).toBe(200)
      expect(hop.headers['x-kept']).toBe('yes')
      for (const name of ['connection', 'x-hop', 'keep-alive']) expect(hop.headers[name]).toBeUndefined()
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  if (withFallback) {
    it('hands unmatched requests to the Express fallback, shaped as HTTP/1.1 for Express', async () => {
      const res = await h2Fetch(srv.origin, { ':path': '/legacy' })
      expect(res.status).toBe(200)
      expect(res.text).toBe(`legacy 127.0.0.1 ${secure ? 'https' : 'http'} 2.0`)
      expect(res.headers['x-powered-by']).toBe('Express')
      const json = await h2Fetch(
        srv.origin,
        { ':method': 'POST', ':path': '/legacy-json', 'content-type': 'application/json' },
        '{"a":1}',
      )
      // Hono middleware read the body before the request fell through: Express's parser gets it all.
      expect(JSON.parse(json.text)).toEqual({ body: { a: 1 }, pseudo: [] })
      const missing = await h2Fetch(srv.origin, { ':path': '/nowhere' })
      expect(missing.status).toBe(404)
      expect(missing.text).toContain('Cannot GET /nowhere')
    })
  } else {
    it('answers 404 for a request nothing serves, as on HTTP/1.1', async () => {
      const res = await h2Fetch(srv.origin, { ':path': '/nowhere' })
      expect(res.status).toBe(404)
      expect(res.text).toBe('Cannot GET /nowhere')
    })
  }

  if (secure) {
    it('negotiates by ALPN: h2 for HTTP/2 clients, HTTP/1.1 on the same port for the others', async () => {
      const alpn = await new Promise<string | false>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port: srv.port, ALPNProtocols: ['h2', 'http/1.1'], rejectUnauthorized: false }, () => {
          resolve(socket.alpnProtocol ?? false)
          socket.end()
        })
        socket.on('error', reject)
      })
      expect(alpn).toBe('h2')
      const overHttp1 = await new Promise<string>((resolve, reject) => {
        const req = https.request(
          { host: '127.0.0.1', port: srv.port, path: '/echo', method: 'POST', rejectUnauthorized: false, agent: false },
          (res) => {
            let data = ''
            res.setEncoding('utf8')
            res.on('data', (c) => (data += c))
            res.on('end', () => resolve(`${res.httpVersion} ${res.statusCode} ${data}`))
          },
        )
        req.on('error', reject)
        req.write('chun')
        req.end('ked')
      })
      expect(overHttp1).toBe('1.1 200 echo:chunked')
    })
  }
})

describe('bridge.listen({ http2 })', () => {
  it('starts h2 over TLS with HTTP/1.1 allowed, and h2c with http2: true', async () => {
    const { hono, legacy } = apps()
    const bridge = fetchBridge(hono, { fallback: legacy })
    for (const [options, origin] of [
      [{ key, cert }, 'https'],
      [true, 'http'],
    ] as const) {
      const server = bridge.listen({ port: 0, host: '127.0.0.1', http2: options })
      await new Promise((resolve) => server.once('listening', resolve))
      const port = (server.address() as { port: number }).port
      try {
        const res = await h2Fetch(`${origin}://127.0.0.1:${port}`, { ':path': '/legacy' })
        expect(res.text).toBe(`legacy 127.0.0.1 ${origin} 2.0`)
        expect((server as http2.Http2SecureServer).listenerCount('request')).toBe(1)
      } finally {
        await new Promise((resolve) => server.close(resolve))
      }
    }
  })

  it('close() sends GOAWAY: the request in flight finishes, the session closes, no new stream is taken', async () => {
    const hono = new Hono()
    hono.get('/slow', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 200))
      return c.text('finished')
    })
    const server = fetchBridge(hono).listen({ port: 0, host: '127.0.0.1', http2: true })
    await new Promise((resolve) => server.once('listening', resolve))
    const session = await connect(`http://127.0.0.1:${(server.address() as { port: number }).port}`)
    const goaway = new Promise((resolve) => session.once('goaway', resolve))
    const sessionClosed = new Promise((resolve) => session.once('close', resolve))
    const inFlight = h2Request(session, { ':path': '/slow' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const serverClosed = new Promise((resolve) => server.close(resolve))
    await goaway
    expect((await inFlight).text).toBe('finished')
    await sessionClosed
    await serverClosed
  })

  it('refuses an http2 option that is neither true nor TLS options', () => {
    const bridge = fetchBridge(new Hono())
    expect(() => bridge.listen({ port: 0, http2: 'yes' as unknown as true })).toThrow(/http2 must be true/)
  })
})

describe('WebSockets next to HTTP/2', () => {
  it('HTTP/2 clients are not offered WebSockets over HTTP/2 (no RFC 8441), HTTP/1.1 upgrades on the same port work', async () => {
    const hono = new Hono()
    hono.get('/ws', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(`echo:${String(evt.data)}`) })))
    const bridge = fetchBridge(hono, { fallback: express() })
    const server = bridge.listen({ port: 0, host: '127.0.0.1', http2: { key, cert } })
    await new Promise((resolve) => server.once('listening', resolve))
    attachWebSockets(server as http2.Http2SecureServer, bridge, { wss: new WebSocketServer({ noServer: true }) })
    const port = (server.address() as { port: number }).port
    try {
      // Browsers open a WebSocket over HTTP/2 only where the server advertises extended CONNECT.
      const session = await connect(`https://127.0.0.1:${port}`)
      await new Promise((resolve) => (session.remoteSettings.enableConnectProtocol !== undefined ? resolve(0) : session.once('remoteSettings', resolve)))
      expect(session.remoteSettings.enableConnectProtocol).toBe(false)
      // A plain HTTP/2 request to the route is no upgrade: the route does not answer it, the fallback does.
      expect((await h2Request(session, { ':path': '/ws' })).status).toBe(404)
      session.close()
      const client = await wsConnect(`wss://127.0.0.1:${port}/ws`, { rejectUnauthorized: false })
      client.ws.send('hi')
      expect(await client.next()).toBe('echo:hi')
      client.ws.close()
      await client.closed
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
