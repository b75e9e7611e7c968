import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src'

// Middleware that wraps res.write/res.end (compression, body loggers) was written for what res.send()
// passes them: strings and Buffers. The bridge must not hand such wrappers bare Uint8Arrays, whose
// toString() is "102,111,111".
function captureBody(seen: { chunks: unknown[] }): express.RequestHandler {
  return (_req, res, next) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      seen.chunks.push(chunk)
      return write(chunk, ...rest)
    }) as typeof res.write
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== 'function') seen.chunks.push(chunk)
      return end(chunk, ...rest)
    }) as typeof res.end
    next()
  }
}

function bytes(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(text))
}

const hono = new Hono()
hono.get('/uint8array', () => new Response(bytes('foo')))
hono.get('/arraybuffer', () => new Response(bytes('foo').buffer))
hono.get('/dataview', () => new Response(new DataView(bytes('xfoo').buffer, 1)))
hono.get('/blob', () => new Response(new Blob([bytes('foo')])))
hono.get('/stream', () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes('fo'))
      controller.enqueue(bytes('o'))
      controller.close()
    },
  })
  return new Response(body)
})

describe('wrapped res.write/res.end get Buffers', () => {
  it.each(['/uint8array', '/arraybuffer', '/dataview', '/blob', '/stream'])('%s: every binary chunk a wrapper sees is a Buffer', async (path) => {
    const seen = { chunks: [] as unknown[] }
    const app = express()
    app.use(captureBody(seen))
    app.use(fetchBridge(hono))
    const res = await request(app).get(path).buffer(true).parse((r, cb) => {
      const parts: Buffer[] = []
      r.on('data', (c: Buffer) => parts.push(c))
      r.on('end', () => cb(null, Buffer.concat(parts).toString()))
    })
    expect(res.body).toBe('foo')
    const binary = seen.chunks.filter((c) => typeof c !== 'string')
    expect(binary.length).toBeGreaterThan(0)
    for (const chunk of binary) expect(Buffer.isBuffer(chunk)).toBe(true)
    expect(binary.map((c) => (c as Buffer).toString()).join('')).toBe('foo')
  })

  it('without a wrapper the client gets the same bytes', async () => {
    const app = express()
    app.use(fetchBridge(hono))
    for (const path of ['/uint8array', '/arraybuffer', '/dataview', '/blob', '/stream']) {
      const res = await request(app).get(path).buffer(true).parse((r, cb) => {
        const parts: Buffer[] = []
        r.on('data', (c: Buffer) => parts.push(c))
        r.on('end', () => cb(null, Buffer.concat(parts).toString()))
      })
      expect(res.body).toBe('foo')
    }
  })
})
