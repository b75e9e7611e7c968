import express from 'express'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { methodOverride } from 'hono/method-override'
import { fetchBridge } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

// Hono middleware and user code re-wrap c.req.raw (`new Request(c.req.raw, init)`, `fetch(c.req.raw)`)
// as they would a platform Request. With the default global override this works as on Hono alone.

interface Reply {
  status: number
  body: string
}

/** A request with a chunked body (no Content-Length), written in two parts. */
async function send(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  const parts = body === undefined ? undefined : [body.slice(0, body.length >> 1), body.slice(body.length >> 1)]
  const { res, body: bytes } = await request(`http://127.0.0.1:${port}${path}`, { method, headers }, parts)
  return { status: res.statusCode!, body: bytes.toString() }
}

/** What `new Request(used)` throws, or 'constructed'. */
function constructError(used: Request): string {
  try {
    new Request(used)
    return 'constructed'
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`
  }
}

async function usedPlatformRequest(): Promise<Request> {
  const used = new Request('http://x/', { method: 'POST', body: 'read once' })
  await used.text()
  return used
}

let upstream: Running
let server: Running
beforeAll(async () => {
  upstream = await listen((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ method: req.method, url: req.url, seen: req.headers['x-seen'] ?? null, body: Buffer.concat(chunks).toString() }))
    })
  })

  const hono = new Hono()
  hono.post('/limited', bodyLimit({ maxSize: 1024 }), async (c) => c.text(`got ${await c.req.text()}`))
  hono.post('/rewrap', async (c) => {
    const copy = new Request(c.req.raw)
    return c.json({ method: copy.method, url: copy.url, type: copy.headers.get('content-type'), body: await copy.text() })
  })
  hono.post('/rewrap-init', async (c) => {
    const copy = new Request(c.req.raw, { method: 'PUT', headers: { 'x-extra': '1' } })
    return c.json({ method: copy.method, extra: copy.headers.get('x-extra'), body: await copy.text() })
  })
  hono.post('/rewrap-read', async (c) => {
    await c.req.text()
    return c.json({ lazy: constructError(c.req.raw), platform: constructError(await usedPlatformRequest()) })
  })
  hono.get('/instance', (c) => c.json({ lazy: c.req.raw instanceof Request, real: new Request('http://x/') instanceof Request }))

  const header = new Hono()
  header.use('*', methodOverride({ app: header, header: 'x-http-method-override' }))
  header.delete('/item', async (c) => c.text(`deleted via header: ${await c.req.text()}`))

  const query = new Hono()
  query.use('*', methodOverride({ app: query, query: '_method' }))
  query.patch('/item', async (c) => c.text(`patched via query: ${await c.req.text()}`))

  const app = express()
  app.use('/header', fetchBridge(header))
  app.use('/query', fetchBridge(query))
  app.use(fetchBridge(hono))
  server = await listen(app)
})
afterAll(async () => {
  await server.close()
  await upstream.close()
})

describe('new Request(c.req.raw)', () => {
  it('copies method, url, headers and the body', async () => {
    const reply = await send(server.port, 'POST', '/rewrap?x=1', 'hello body', { 'content-type': 'text/plain' })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body)).toEqual({
      method: 'POST',
      url: `http://127.0.0.1:${server.port}/rewrap?x=1`,
      type: 'text/plain',
      body: 'hello body',
    })
  })

  it('takes an init that overrides method and headers, keeping the body', async () => {
    const reply = await send(server.port, 'POST', '/rewrap-init', 'with init')
    expect(JSON.parse(reply.body)).toEqual({ method: 'PUT', extra: '1', body: 'with init' })
  })

  it('rejects a request whose body was already read, as the platform does', async () => {
    const reply = await send(server.port, 'POST', '/rewrap-read', 'read once')
    const { lazy, platform } = JSON.parse(reply.body)
    expect(platform).toMatch(/^TypeError: /)
    expect(lazy).toBe(platform)
  })

  it('keeps instanceof Request true for the lazy and for real Requests', async () => {
    const reply = await send(server.port, 'GET', '/instance')
    expect(JSON.parse(reply.body)).toEqual({ lazy: true, real: true })
  })
})

describe('hono/body-limit', () => {
  it('passes a chunked upload under the limit to the handler', async () => {
    const reply = await send(server.port, 'POST', '/limited', 'x'.repeat(600))
    expect(reply).toEqual({ status: 200, body: `got ${'x'.repeat(600)}` })
  })

  it('answers 413 for a chunked upload over the limit', async () => {
    const reply = await send(server.port, 'POST', '/limited', 'x'.repeat(3000))
    expect(reply.status).toBe(413)
  })
})

describe('hono/method-override', () => {
  it('header form re-dispatches with the body', async () => {
    const reply = await send(server.port, 'POST', '/header/item', 'payload', { 'x-http-method-override': 'DELETE' })
    expect(reply).toEqual({ status: 200, body: 'deleted via header: payload' })
  })

  it('query form re-dispatches with the body', async () => {
    const reply = await send(server.port, 'POST', '/query/item?_method=PATCH', 'payload')
    expect(reply).toEqual({ status: 200, body: 'patched via query: payload' })
  })
})

describe('fetch(c.req.raw)', () => {
  let proxy: Running
  beforeAll(async () => {
    const hono = new Hono()
    hono.all('*', (c) => fetch(c.req.raw))
    // The origin option points the lazy Request's URL at the upstream: fetch() forwards it there.
    const app = express()
    app.use(fetchBridge(hono, { origin: `http://127.0.0.1:${upstream.port}` }))
    proxy = await listen(app)
  })
  afterAll(() => proxy.close())

  it('forwards a GET with its headers', async () => {
    const reply = await send(proxy.port, 'GET', '/up?q=1', undefined, { 'x-seen': 'client' })
    expect(JSON.parse(reply.body)).toEqual({ method: 'GET', url: '/up?q=1', seen: 'client', body: '' })
  })

  // With Content-Length: undici's fetch() refuses a Transfer-Encoding request header, whoever built the Request.
  it('forwards a streamed POST body', async () => {
    const reply = await send(proxy.port, 'POST', '/up', 'streamed upload', { 'content-length': '15' })
    expect(JSON.parse(reply.body)).toEqual({ method: 'POST', url: '/up', seen: null, body: 'streamed upload' })
  })
})
