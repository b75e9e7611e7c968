import { Readable } from 'node:stream'
import compression from 'compression'
import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'
import { fetchBridge, shadowTrial } from '../../src/index.js'
import { listen, raw, type Running } from '../helpers/transport.js'

// The client gets exactly Express's bytes with a shadow trial on: the same server without the bridge
// sends the same bytes (Date aside) for random answers — fixed, chunked and streamed bodies, HEAD,
// 304, errors handled by Express (before and after the first byte), with compression() around the
// route or in front of the bridge.

interface Behaviour {
  kind: 'send' | 'json' | 'chunks' | 'stream' | 'error' | 'error-after-write' | 'fresh'
  status: number
  headers: Record<string, string>
  parts: string[]
}

let current: Behaviour

function route(_req: express.Request, res: express.Response, next: express.NextFunction): void {
  const b = current
  res.status(b.status).set(b.headers)
  const body = b.parts.join('')
  switch (b.kind) {
    case 'send':
      return void res.send(body)
    case 'json':
      return void res.json({ parts: b.parts, n: b.parts.length })
    case 'chunks':
      res.type('text/plain')
      for (const part of b.parts) res.write(part)
      return void res.end()
    case 'stream':
      res.type('text/plain')
      return void Readable.from(b.parts.map((p) => Buffer.from(p))).pipe(res)
    case 'error':
      return next(new Error('route failed'))
    case 'error-after-write': {
      res.type('text/plain').write(body || 'x')
      // compression() holds a short first write in its encoder: flush it (asynchronously, zlib) and fail
      // once the head has gone out, so it usually reaches the client before the error cuts the connection.
      ;(res as { flush?: () => void }).flush?.()
      const fail = (): void => void (res.headersSent ? next(new Error('failed half way')) : setImmediate(fail))
      return void setImmediate(fail)
    }
    case 'fresh':
      return void res.set('etag', '"v1"').send(body)
  }
}

type Compress = 'none' | 'route' | 'front'

const trial = shadowTrial({ routes: 'all', noise: { sampleRate: 1, gapMs: 0 } })

function server(compress: Compress, shadow: boolean): express.Express {
  const app = express()
  app.set('env', 'production')
  if (compress === 'front') app.use(compression({ threshold: 0 }))
  if (shadow) {
    const hono = new Hono()
    hono.get('/r', (c) => c.json({ twin: true, at: Date.now() }))
    app.use(fetchBridge(hono, { shadow: trial }))
  }
  const handlers: express.RequestHandler[] = compress === 'route' ? [compression({ threshold: 0 }), route] : [route]
  app.get('/r', ...handlers)
  return app
}

const behaviour: fc.Arbitrary<Behaviour> = fc.record({
  kind: fc.constantFrom('send', 'json', 'chunks', 'stream', 'error', 'error-after-write', 'fresh'),
  status: fc.constantFrom(200, 201, 404, 500),
  headers: fc.dictionary(
    fc.constantFrom('x-a', 'x-b', 'cache-control', 'x-request-id'),
    fc.stringMatching(/^[a-z0-9=,]{0,12}$/),
    { maxKeys: 3 },
  ),
  parts: fc.array(fc.string({ maxLength: 40 }), { minLength: 0, maxLength: 5 }),
})

const withoutDate = (data: Buffer) => data.toString('latin1').replace(/\r\nDate: [^\r]*/, '')

describe('client bytes with a shadow trial on and off', () => {
  const servers: Partial<Record<`${Compress}-${boolean}`, Running>> = {}
  beforeAll(async () => {
    // Express's final handler logs the seeded route errors.
    jest.spyOn(console, 'error').mockImplementation(() => {})
    for (const compress of ['none', 'route', 'front'] as const) {
      for (const shadow of [true, false]) servers[`${compress}-${shadow}`] = await listen(server(compress, shadow))
    }
  })
  afterAll(() => Promise.all(Object.values(servers).map((s) => s!.close())))

  it('are identical for random answers (chunked, streamed, compressed, HEAD, 304, errors)', async () => {
    await fc.assert(
      fc.asyncProperty(
        behaviour,
        fc.constantFrom<Compress>('none', 'route', 'front'),
        fc.constantFrom('GET', 'HEAD'),
        fc.boolean(),
        async (b, compress, method, gzip) => {
          current = b
          const conditional = b.kind === 'fresh' ? 'If-None-Match: "v1"\r\n' : ''
          const head = `${method} /r HTTP/1.1\r\nHost: x\r\n${gzip ? 'Accept-Encoding: gzip\r\n' : ''}${conditional}Connection: close\r\n\r\n`
          const on = await raw(servers[`${compress}-true`]!.port, head)
          const off = await raw(servers[`${compress}-false`]!.port, head)
          // A connection cut half way through a compressed answer carries whatever the encoder flushed
          // by then, and ends closed or reset (timing, with or without the bridge): only the head is the same there.
          const cutCompressed = b.kind === 'error-after-write' && compress !== 'none' && gzip
          if (!cutCompressed) expect(on.ended).toBe(off.ended)
          const cut = (text: string) => (cutCompressed ? text.slice(0, text.indexOf('\r\n\r\n')) : text)
          if (cutCompressed) {
            // The head itself can be lost with the cut connection, on either side: compare heads sent.
            const heads = [on, off].map((r) => cut(withoutDate(r.data))).filter((h) => h !== '')
            expect(new Set(heads).size).toBeLessThanOrEqual(1)
          } else {
            expect(withoutDate(on.data)).toBe(withoutDate(off.data))
          }
        },
      ),
      { numRuns: 80 },
    )
    // The twin did run beside those answers (and was compared).
    const [row] = trial.stats()
    expect(row.samples).toBeGreaterThan(20)
  }, 60000)
})
