import http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, type Running } from '../helpers/transport.js'

// Earlier middleware called req.setEncoding(): the body still decodes to what the client sent, in
// any number of chunks (split inside a multi-byte character too), and nothing crashes.

const text = 'héllo wörld — 𝄞 ünïcødé €'
const bytes = Buffer.from(text)

const hono = new Hono()
hono.post('/text', async (c) => c.text(await c.req.text()))
hono.post('/json', async (c) => c.json(await c.req.json()))
hono.post('/bytes', async (c) => c.text(Buffer.from(await c.req.arrayBuffer()).toString('hex')))
hono.post('/stream', async (c) => {
  const chunks: Uint8Array[] = []
  for await (const chunk of c.req.raw.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return c.text(Buffer.concat(chunks).toString())
})
hono.post('/form', async (c) => c.json(Object.fromEntries(await c.req.formData())))

/** POST `body` in two chunks, split at `at` (inside a multi-byte character). */
function post(port: number, path: string, body: Buffer, at: number, type = 'text/plain; charset=utf-8'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path, agent: false, headers: { 'content-type': type } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }))
    })
    req.setTimeout(3000, () => req.destroy(new Error('no answer within 3 s')))
    req.on('error', reject)
    req.write(body.subarray(0, at))
    setTimeout(() => req.end(body.subarray(at)), 10)
  })
}

describe.each(['utf8', 'latin1', 'hex', 'base64'] as const)('after req.setEncoding(%p)', (encoding) => {
  let server: Running
  beforeAll(async () => {
    const app = express()
    app.use((req, _res, next) => {
      req.setEncoding(encoding)
      next()
    })
    app.use(fetchBridge(hono))
    server = await listen(app)
  })
  afterAll(() => server.close())

  // Byte 2 is inside "é".
  it('text() decodes a body sent in two chunks', async () => {
    expect(await post(server.port, '/text', bytes, 2)).toEqual({ status: 200, body: text })
  })

  it('json() decodes it', async () => {
    const json = Buffer.from(JSON.stringify({ text }))
    const reply = await post(server.port, '/json', json, 12, 'application/json')
    expect(JSON.parse(reply.body)).toEqual({ text })
  })

  it('arrayBuffer() has the bytes sent', async () => {
    expect((await post(server.port, '/bytes', bytes, 2)).body).toBe(bytes.toString('hex'))
  })

  it('the body stream has the bytes sent', async () => {
    expect(await post(server.port, '/stream', bytes, 2)).toEqual({ status: 200, body: text })
  })

  it('formData() decodes it', async () => {
    const form = Buffer.from(`t=${encodeURIComponent(text)}`)
    const reply = await post(server.port, '/form', form, 5, 'application/x-www-form-urlencoded')
    expect(JSON.parse(reply.body)).toEqual({ t: text })
  })
})

/** POST `body` one piece at a time (every `size` bytes), 2 ms apart. */
function postInPieces(port: number, path: string, body: Buffer, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }))
    })
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')))
    req.on('error', reject)
    let at = 0
    const next = () => {
      if (at + size >= body.length) return void req.end(body.subarray(at))
      req.write(body.subarray(at, (at += size)))
      setTimeout(next, 2)
    }
    next()
  })
}

describe.each(['utf8', 'utf16le', 'latin1', 'hex', 'base64'] as const)('after req.setEncoding(%p), many chunks', (encoding) => {
  let server: Running
  beforeAll(async () => {
    const app = express()
    app.use((req, _res, next) => {
      req.setEncoding(encoding)
      next()
    })
    app.use(fetchBridge(hono))
    server = await listen(app)
  })
  afterAll(() => server.close())

  it.each([1, 3])('a text body in %p-byte pieces arrives whole (text(), the stream, arrayBuffer())', async (size) => {
    expect(await postInPieces(server.port, '/text', bytes, size)).toEqual({ status: 200, body: text })
    expect(await postInPieces(server.port, '/stream', bytes, size)).toEqual({ status: 200, body: text })
    expect((await postInPieces(server.port, '/bytes', bytes, size)).body).toBe(bytes.toString('hex'))
  })
})

describe.each(['latin1', 'hex', 'base64'] as const)('after req.setEncoding(%p) (a byte-exact encoding)', (encoding) => {
  it('every byte value arrives as sent, in pieces of any size', async () => {
    const app = express()
    app.use((req, _res, next) => {
      req.setEncoding(encoding)
      next()
    })
    app.use(fetchBridge(hono))
    const server = await listen(app)
    try {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
      for (const size of [1, 5, 100]) {
        expect((await postInPieces(server.port, '/bytes', binary, size)).body).toBe(binary.toString('hex'))
      }
    } finally {
      await server.close()
    }
  })
})
