import http from 'node:http'
import express from 'express'
import multer from 'multer'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { fetchBridge } from '../../src/index.js'
import { listen, type Running } from '../helpers/transport.js'

// Hono middleware that only touches c.req.raw.body (as bodyLimit() does with a Content-Length) must
// leave every byte to the Express routes a request falls through to. A body Hono read, in part or to
// the end, is put back for them (fall-through-after-body-read tests the bound); never a hang.

const KiB = 1024
const size = 300 * KiB
const payload = Buffer.alloc(size, 'a')

function hono(): Hono {
  const app = new Hono()
  app.use('*', bodyLimit({ maxSize: 1024 * KiB }))
  app.use('*', async (c, next) => {
    // Touch the body getter again, as a second middleware could.
    if (c.req.raw.body === null && c.req.method === 'POST') throw new Error('no body')
    await next()
  })
  app.use('/partly', async (c, next) => {
    await c.req.raw.body!.getReader().read()
    await next()
  })
  app.use('/wholly', async (c, next) => {
    await c.req.arrayBuffer()
    await next()
  })
  return app
}

function expressRoutes(app: express.Express): void {
  app.post('/json', express.json({ limit: '1mb' }), (req, res) => res.send(`json ${(req.body as { a: string }).a.length}`))
  app.post('/raw', express.raw({ limit: '1mb', type: '*/*' }), (req, res) => res.send(`raw ${(req.body as Buffer).length}`))
  app.post('/multer', multer().single('file'), (req, res) => res.send(`multer ${req.file!.size}`))
  app.post('/partly', express.raw({ limit: '1mb', type: '*/*' }), (req, res) => res.send(`partly ${(req.body as Buffer).length}`))
  app.post('/wholly', express.raw({ limit: '1mb', type: '*/*' }), (req, res) => res.send(`wholly ${(req.body as Buffer).length}`))
  app.use((err: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).send(`error: ${err.message}`)
  })
}

function post(port: number, path: string, type: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', method: 'POST', path, agent: false, headers: { 'content-type': type, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }))
      },
    )
    // A hung request fails the test instead of timing out jest.
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')))
    req.on('error', reject)
    req.end(body)
  })
}

function multipart(): { type: string; body: Buffer } {
  const boundary = 'XbridgeX'
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    payload,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { type: `multipart/form-data; boundary=${boundary}`, body }
}

describe.each([
  ['middleware', () => {
    const app = express()
    app.use(fetchBridge(hono()))
    expressRoutes(app)
    return app
  }],
  ['front door', () => {
    const app = express()
    expressRoutes(app)
    return fetchBridge(hono(), { fallback: app })
  }],
])('%s: a request Hono did not read falls through with every byte', (_mode, make) => {
  let server: Running
  beforeAll(async () => {
    server = await listen(make() as http.RequestListener)
  })
  afterAll(() => server.close())

  it('express.json() gets a 300 KiB body', async () => {
    const body = Buffer.from(JSON.stringify({ a: payload.toString() }))
    expect(await post(server.port, '/json', 'application/json', body)).toEqual({ status: 200, text: `json ${size}` })
  })

  it('express.raw() gets a 300 KiB body', async () => {
    expect(await post(server.port, '/raw', 'application/octet-stream', payload)).toEqual({ status: 200, text: `raw ${size}` })
  })

  it('multer gets a 300 KiB file', async () => {
    const { type, body } = multipart()
    expect(await post(server.port, '/multer', type, body)).toEqual({ status: 200, text: `multer ${size}` })
  })

  it('a body Hono read in part reaches express.raw() whole', async () => {
    expect(await post(server.port, '/partly', 'application/octet-stream', payload)).toEqual({ status: 200, text: `partly ${size}` })
  })

  it('a body Hono read to the end reaches express.raw() whole', async () => {
    expect(await post(server.port, '/wholly', 'application/octet-stream', payload)).toEqual({ status: 200, text: `wholly ${size}` })
  })
})

describe('a read started before any byte arrived', () => {
  let server: Running
  beforeAll(async () => {
    const first = new Hono()
    first.use('*', async (c, next) => {
      // Starts a read but does not wait for it, then lets the request fall through.
      void c.req.raw.body!.getReader().read().catch(() => undefined)
      await next()
    })
    const second = new Hono()
    second.post('/late', async (c) => {
      let n = 0
      for await (const chunk of c.req.raw.body as unknown as AsyncIterable<Uint8Array>) n += chunk.byteLength
      return c.text(`second bridge streamed ${n}`)
    })
    const app = express()
    app.use(fetchBridge(first))
    app.use(fetchBridge(second))
    app.post('/late-raw', express.raw({ limit: '1mb', type: '*/*' }), (req, res) => res.send(`express.raw ${(req.body as Buffer).length}`))
    server = await listen(app)
  })
  afterAll(() => server.close())

  function lateUpload(path: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const req = http.request({ port: server.port, host: '127.0.0.1', method: 'POST', path, agent: false, headers: { 'content-length': size, 'content-type': 'application/octet-stream' } }, (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve(text))
      })
      req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')))
      req.on('error', reject)
      req.flushHeaders()
      // The body comes after the first bridge has let the request go.
      setTimeout(() => req.end(payload), 100)
    })
  }

  it('is undone: the next bridge streams every byte', async () => {
    expect(await lateUpload('/late')).toBe(`second bridge streamed ${size}`)
  })

  it('is undone: express.raw() behind gets every byte', async () => {
    expect(await lateUpload('/late-raw')).toBe(`express.raw ${size}`)
  })
})
