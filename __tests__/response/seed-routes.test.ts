import { randomBytes } from 'node:crypto'
import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

const big = randomBytes(1024 * 1024)

function createApp() {
  const hono = new Hono()
  // The seed's three routes.
  hono.get('/', () => {
    const res = new Response('foo')
    res.headers.set('x-foo', 'bar')
    return res
  })
  hono.get('/uint8array', () => new Response(new Uint8Array([104, 105, 33])))
  hono.get('/blob', () => new Response(new Blob(['blob body'], { type: 'text/x-blob' })))
  // Other body kinds.
  hono.get('/big/uint8array', () => new Response(new Uint8Array(big)))
  hono.get('/big/buffer', () => new Response(big))
  hono.get('/big/blob', () => new Response(new Blob([big])))
  hono.get('/big/stream', () => {
    let offset = 0
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= big.length) return controller.close()
          const size = 1000 + (offset % 7919) // uneven chunks
          controller.enqueue(new Uint8Array(big.subarray(offset, offset + size)))
          offset += size
        },
      }),
    )
  })
  hono.get('/arraybuffer', () => new Response(new Uint8Array([1, 2, 3, 4]).buffer))
  hono.get('/dataview', () => new Response(new DataView(new Uint8Array([9, 8, 7, 6, 5]).buffer, 1, 3)))
  hono.get('/subarray', () => new Response(new Uint8Array([0, 1, 2, 3, 4, 5]).subarray(2, 4)))
  hono.get('/params', () => new Response(new URLSearchParams({ a: '1 2', b: 'ä' })))
  hono.get('/null', () => new Response(null, { status: 201, headers: { 'x-empty': 'yes' } }))
  hono.get('/no-content', () => new Response(null, { status: 204 }))
  hono.get('/utf8', () => new Response('héllo €'))
  hono.get('/typed', () => new Response('<p>x</p>', { headers: { 'Content-Type': 'text/html' } }))
  const app = express()
  app.use(fetchBridge(hono))
  return app
}

const app = createApp()

const binary = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => cb(null, Buffer.concat(chunks)))
}

/** `res` has `status` and exactly these header values (undefined: absent). */
function expectStatusAndHeaders(res: request.Response, status: number, headers: Record<string, string | undefined>) {
  expect(res.status).toBe(status)
  for (const [name, value] of Object.entries(headers)) expect([name, res.headers[name]]).toEqual([name, value])
}

describe('the seed routes', () => {
  it('/ is new Response("foo") with a header set afterwards', async () => {
    const res = await request(app).get('/')
    expect(res.text).toBe('foo')
    expectStatusAndHeaders(res, 200, {
      'x-foo': 'bar',
      'content-length': '3',
      'content-type': 'text/plain;charset=UTF-8',
      'transfer-encoding': undefined,
    })
  })

  it('/uint8array sends the bytes with an exact length and no content type', async () => {
    const res = await request(app).get('/uint8array').buffer(true).parse(binary)
    expect(Buffer.compare(res.body, Buffer.from('hi!'))).toBe(0)
    expectStatusAndHeaders(res, 200, { 'content-length': '3', 'content-type': undefined })
  })

  it("/blob sends the blob with its type and size", async () => {
    const res = await request(app).get('/blob')
    expect(res.text).toBe('blob body')
    expectStatusAndHeaders(res, 200, { 'content-type': 'text/x-blob', 'content-length': '9' })
  })
})

describe('body kinds', () => {
  it.each(['uint8array', 'buffer', 'blob', 'stream'])('a 1 MiB random %s body is byte-identical', async (kind) => {
    const res = await request(app).get(`/big/${kind}`).buffer(true).parse(binary)
    expect(res.status).toBe(200)
    expect(res.body.length).toBe(big.length)
    expect(Buffer.compare(res.body, big)).toBe(0)
    // The stream is complete when first read, so it too gets an exact length rather than chunked.
    expect(res.headers['content-length']).toBe(String(big.length))
    expect(res.headers['transfer-encoding']).toBeUndefined()
  })

  it('ArrayBuffer body', async () => {
    const res = await request(app).get('/arraybuffer').buffer(true).parse(binary)
    expect([...res.body]).toEqual([1, 2, 3, 4])
    expect(res.headers['content-length']).toBe('4')
  })

  it('DataView and subarray views send only their window', async () => {
    const dv = await request(app).get('/dataview').buffer(true).parse(binary)
    expect([...dv.body]).toEqual([8, 7, 6])
    expect(dv.headers['content-length']).toBe('3')
    const sub = await request(app).get('/subarray').buffer(true).parse(binary)
    expect([...sub.body]).toEqual([2, 3])
  })

  it('URLSearchParams body is form-encoded with its content type', async () => {
    const res = await request(app).get('/params').buffer(true).parse(binary)
    expect(res.body.toString()).toBe('a=1+2&b=%C3%A4')
    expect(res.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8')
    expect(res.headers['content-length']).toBe(String(res.body.length))
  })

  it('null body sends Content-Length 0 and the headers', async () => {
    const res = await request(app).get('/null')
    expectStatusAndHeaders(res, 201, { 'content-length': '0', 'x-empty': 'yes', 'content-type': undefined })
  })

  it('204 has neither body nor Content-Length', async () => {
    const res = await request(app).get('/no-content')
    expectStatusAndHeaders(res, 204, { 'content-length': undefined })
  })

  it('Content-Length counts UTF-8 bytes, not characters', async () => {
    const res = await request(app).get('/utf8')
    expect(res.text).toBe('héllo €')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength('héllo €')))
  })

  it("an explicit Content-Type is not replaced by the default", async () => {
    const res = await request(app).get('/typed')
    expect(res.headers['content-type']).toBe('text/html')
  })
})
