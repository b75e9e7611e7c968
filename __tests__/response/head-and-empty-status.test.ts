import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, OriginalResponse } from '../../src/index.js'
import { countResponses, parseHead, raw, listen, waitFor, type Running } from '../helpers/transport.js'

// HEAD and null-body statuses, checked on the exact bytes: a stray body or a wrong framing header
// would show up as garbage before the next pipelined response.

let cancelled = 0
function cancellableStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode('chunk\n'))
    },
    cancel() {
      cancelled++
    },
  }, { highWaterMark: 0 })
}

const hono = new Hono()
hono.get('/text', (c) => c.text('hello'))
hono.get('/json', (c) => c.json({ a: 1, b: 'two' }))
hono.get('/stream', (c) => c.body(cancellableStream(), 200, { 'content-type': 'text/plain' }))
hono.get('/real', () => new OriginalResponse('from a real Response', { headers: { 'x-real': '1' } }))
hono.get('/no-content', (c) => c.body(null, 204))
hono.get('/not-modified', (c) => c.body(null, 304, { etag: '"v1"', 'content-length': '11' }))
hono.get('/reset-content', (c) => c.body(null, 205))
hono.get('/after', (c) => c.text('after'))

// A plain fetch app that answers HEAD itself, and one for the real-Response (general) path.
const plain = (request: Request) => {
  const path = new URL(request.url).pathname
  if (path === '/declared') return new Response(null, { headers: { 'content-length': '42', 'x-kind': 'declared' } })
  if (path === '/platform-head') return new OriginalResponse(null, new OriginalResponse('hello'))
  if (path === '/stream') return new Response(cancellableStream())
  if (path === '/real-304') return new OriginalResponse(null, { status: 304, headers: { 'content-length': '10', 'transfer-encoding': 'chunked' } })
  if (path === '/real-204') return new OriginalResponse(null, { status: 204, headers: { 'content-length': '0' } })
  return new Response('after')
}

let honoServer: Running
let expressServer: Running
let plainServer: Running

beforeAll(async () => {
  const bridge = fetchBridge(hono)
  honoServer = await listen((req, res) => bridge(req, res))
  const app = express()
  app.use(fetchBridge(hono))
  expressServer = await listen(app)
  const plainBridge = fetchBridge(plain)
  plainServer = await listen((req, res) => plainBridge(req, res))
})
afterAll(async () => {
  await Promise.all([honoServer.close(), expressServer.close(), plainServer.close()])
})

/** Send `first` then a pipelined GET /after; return the first response's head and what follows it. */
async function pipelined(port: number, first: string) {
  const result = await raw(
    port,
    `${first} HTTP/1.1\r\nHost: test\r\n\r\nGET /after HTTP/1.1\r\nHost: test\r\n\r\n`,
    (data) => data.toString('latin1').endsWith('\r\n\r\nafter'),
  )
  const head = parseHead(result.data)
  return { ...head, all: result.data.toString('latin1') }
}

/**
 * The response has `status` and exactly these header values (undefined: absent), and nothing stands
 * between its head and the pipelined next response.
 */
function expectHead(res: { status: number; headers: Record<string, unknown>; rest: Buffer }, status: number, headers: Record<string, string | null | undefined>) {
  expect(res.status).toBe(status)
  for (const [name, value] of Object.entries(headers)) expect([name, res.headers[name]]).toEqual([name, value])
  expect(res.rest.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
}

async function getHeaders(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  const body = await res.text()
  return { headers: res.headers, body }
}

describe.each([
  ['node:http', () => honoServer.port],
  ['Express', () => expressServer.port],
])('HEAD through Hono under %s', (_name, port) => {
  it.each(['/text', '/json'])('HEAD %s: same headers as GET, Content-Length of the GET body, no body', async (path) => {
    const get = await getHeaders(port(), path)
    const head = await pipelined(port(), `HEAD ${path}`)
    expectHead(head, 200, {
      'content-length': String(Buffer.byteLength(get.body)),
      'content-type': get.headers.get('content-type'),
      'transfer-encoding': undefined,
    })
    expect(countResponses(Buffer.from(head.all, 'latin1'))).toBe(2)
  })

  it('HEAD of a streamed body: no body, no made-up Content-Length, the stream is cancelled', async () => {
    const before = cancelled
    const head = await pipelined(port(), 'HEAD /stream')
    expectHead(head, 200, { 'content-type': 'text/plain', 'content-length': undefined })
    expect(await waitFor(() => cancelled === before + 1, 1000)).toBe(true)
  })

  it('HEAD when the GET handler returns a real (platform) Response', async () => {
    const head = await pipelined(port(), 'HEAD /real')
    expectHead(head, 200, { 'x-real': '1', 'content-length': undefined })
  })
})

it('HEAD answered with a platform Response built like Hono does it: no made-up Content-Length', async () => {
  // `new Response(null, getResponse)` with the platform class has forgotten the length: say nothing, not 0.
  const head = await pipelined(plainServer.port, 'HEAD /platform-head')
  expectHead(head, 200, { 'content-type': 'text/plain;charset=UTF-8', 'content-length': undefined })
})

it('an app answering HEAD itself keeps its declared Content-Length', async () => {
  const head = await pipelined(plainServer.port, 'HEAD /declared')
  expectHead(head, 200, { 'content-length': '42', 'x-kind': 'declared' })
})

it('a plain app returning a stream for HEAD: no body and the stream is cancelled', async () => {
  const before = cancelled
  const head = await pipelined(plainServer.port, 'HEAD /stream')
  expectHead(head, 200, { 'content-length': undefined })
  expect(await waitFor(() => cancelled === before + 1, 1000)).toBe(true)
})

describe.each([
  ['Hono 204', () => honoServer.port, 'GET /no-content', 204],
  ['Hono 304 with a Content-Length from the app', () => honoServer.port, 'GET /not-modified', 304],
  ['HEAD of a Hono 304', () => honoServer.port, 'HEAD /not-modified', 304],
  ['a real 304 Response with Content-Length and Transfer-Encoding', () => plainServer.port, 'GET /real-304', 304],
  ['a real 204 Response with Content-Length: 0', () => plainServer.port, 'GET /real-204', 204],
])('%s', (_name, port, line, status) => {
  it('has no body and neither Content-Length nor Transfer-Encoding', async () => {
    const res = await pipelined(port(), line)
    expectHead(res, status, { 'content-length': undefined, 'transfer-encoding': undefined })
    expect(countResponses(Buffer.from(res.all, 'latin1'))).toBe(2)
  })
})

it('304 keeps its validators', async () => {
  const res = await pipelined(honoServer.port, 'GET /not-modified')
  expect(res.headers['etag']).toBe('"v1"')
})

it('205 Reset Content: no body, framed as empty (Content-Length: 0)', async () => {
  const res = await pipelined(honoServer.port, 'GET /reset-content')
  expectHead(res, 205, { 'content-length': '0', 'transfer-encoding': undefined })
})
