import express from 'express'
import multer from 'multer'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { expressMiddleware, fetchBridge, type NextFunction } from '../../src/index.js'
import net from 'node:net'
import { listen, request, waitFor, type Running } from '../helpers/transport.js'

// A Hono middleware that reads every body (a global bodyLimit() counting a chunked upload, an
// audit log) and then lets the request fall through: the Express handlers behind get every byte,
// as without the bridge. What the app read is put back, up to 4 MiB; past that, a clear 413.

const MiB = 1024 * 1024

function honoApp(): Hono {
  const hono = new Hono()
  hono.use(bodyLimit({ maxSize: 16 * MiB, onError: (c) => c.text('too large for Hono', 413) }))
  hono.use('/audited/*', async (c, next) => {
    await c.req.arrayBuffer()
    await next()
  })
  // Looks at the first chunk only (a content sniffer), then lets the request go on.
  hono.use('/peek/*', async (c, next) => {
    const reader = c.req.raw.body!.getReader()
    await reader.read()
    reader.releaseLock()
    await next()
  })
  hono.post('/hono', async (c) => c.text(`hono ${(await c.req.text()).length}`))
  return hono
}

/** The legacy app; in middleware mode the bridge comes first, as `app.use(fetchBridge(hono))` before the routes. */
function legacy(bridge?: express.RequestHandler): express.Express {
  const app = express()
  if (bridge) app.use(bridge)
  const upload = multer({ storage: multer.memoryStorage() })
  app.post('/upload', upload.single('file'), (req, res) => {
    res.send(`multer ${req.file?.originalname} ${req.file?.size} ${req.body.note}`)
  })
  app.post(['/json', '/audited/json'], express.json({ limit: '10mb' }), (req, res) => {
    res.send(`json ${req.body.items.length}`)
  })
  app.post(['/audited/raw', '/peek/raw'], express.raw({ type: '*/*', limit: '10mb' }), (req, res) => {
    res.send(`raw ${(req.body as Buffer).length}`)
  })
  app.use((err: Error & { status?: number }, _req: express.Request, res: express.Response, _next: NextFunction) => {
    res.status(err.status ?? 500).send(`express error: ${err.message}`)
  })
  return app
}

/** POST raw bytes (Content-Length known) as application/octet-stream. */
function postBytes(url: string, path: string, payload: string | Buffer) {
  return request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' } }, payload)
}

function multipart(size: number): { type: string; parts: Buffer[] } {
  const boundary = 'xBOUNDARYx'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const file = Buffer.alloc(size, 0x61)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const whole = Buffer.concat([head, file, tail])
  const parts: Buffer[] = []
  for (let i = 0; i < whole.length; i += 64 * 1024) parts.push(whole.subarray(i, i + 64 * 1024))
  return { type: `multipart/form-data; boundary=${boundary}`, parts }
}

const modes: [string, () => Promise<Running>][] = [
  ['middleware mode', () => listen(legacy(fetchBridge(honoApp())))],
  ['front door', () => listen(fetchBridge(honoApp(), { fallback: legacy() }))],
]

describe.each(modes)('%s', (_name, start) => {
  let server: Running
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  it('a chunked multipart upload reaches multer whole after bodyLimit() counted it', async () => {
    const { type, parts } = multipart(MiB)
    const { res, body } = await request(
      `${server.url}/upload`,
      { method: 'POST', headers: { 'content-type': type } },
      parts,
    )
    expect([res.statusCode, body.toString()]).toEqual([200, `multer a.bin ${MiB} hello`])
  })

  it('a chunked JSON body reaches express.json() whole', async () => {
    const json = JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => i) })
    const parts = [json.slice(0, 100), json.slice(100, 5000), json.slice(5000)]
    const { res, body } = await request(
      `${server.url}/json`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      parts,
    )
    expect([res.statusCode, body.toString()]).toEqual([200, 'json 5000'])
  })

  it('a body a Hono middleware read to the end (with Content-Length) reaches Express whole', async () => {
    const payload = Buffer.alloc(3 * MiB, 0x62)
    const { res, body } = await postBytes(server.url, '/audited/raw', payload)
    expect([res.statusCode, body.toString()]).toEqual([200, `raw ${3 * MiB}`])
  })

  it('past 4 MiB read by the app, the request that falls through gets a clear 413, never a short body', async () => {
    const payload = Buffer.alloc(5 * MiB, 0x63)
    const { res, body } = await postBytes(server.url, '/audited/raw', payload)
    expect(res.statusCode).toBe(413)
    // Express's error handler gets the error (next(err)); in front-door mode the bridge answers itself.
    expect(body.toString()).toMatch(/read 5242880 bytes .*more than the 4194304 kept|^Payload Too Large$/)
  })

  it('a body declared over the replay limit, of which the app read only its first chunk, reaches Express whole', async () => {
    const payload = Buffer.alloc(8 * MiB, 0x65)
    const { res, body } = await postBytes(server.url, '/peek/raw', payload)
    expect([res.statusCode, body.toString()]).toEqual([200, `raw ${8 * MiB}`])
  })

  it('a Hono route still reads the body and answers', async () => {
    const { res, body } = await request(`${server.url}/hono`, { method: 'POST' }, ['abc', 'def'])
    expect([res.statusCode, body.toString()]).toEqual([200, 'hono 6'])
  })
})

describe.each([
  ['front door', (hono: Hono) => listen(fetchBridge(hono, { fallback: express() }))],
  ['middleware mode', (hono: Hono) => listen(express().use(fetchBridge(hono)))],
])('Express parsers inside Hono (expressMiddleware) after a global bodyLimit(), %s', (_name, start) => {
  let server: Running
  beforeAll(async () => {
    const hono = new Hono<any>()
    hono.use(bodyLimit({ maxSize: 16 * MiB, onError: (c) => c.text('too large for Hono', 413) }))
    hono.post('/upload', expressMiddleware(multer({ storage: multer.memoryStorage() }).single('file')), (c) =>
      c.text(`multer ${c.env.incoming.file?.originalname} ${c.env.incoming.file?.size} ${c.env.incoming.body.note}`),
    )
    hono.post('/json', expressMiddleware(express.json({ limit: '10mb' })), async (c) =>
      c.text(`json ${c.env.incoming.body.items.length} ${(await c.req.json()).items.length}`),
    )
    // A middleware that does not read the body: the app's own read goes on where it was.
    hono.post(
      '/pass',
      expressMiddleware((_req: unknown, _res: unknown, next: () => void) => next()),
      async (c) => c.text(`hono ${(await c.req.text()).length}`),
    )
    server = await start(hono)
  })
  afterAll(() => server.close())

  it('multer gets a chunked upload whole', async () => {
    const { type, parts } = multipart(MiB)
    const { res, body } = await request(
      `${server.url}/upload`,
      { method: 'POST', headers: { 'content-type': type } },
      parts,
    )
    expect([res.statusCode, body.toString()]).toEqual([200, `multer a.bin ${MiB} hello`])
  })

  it('express.json() gets a chunked body whole, and c.req.json() reads the same', async () => {
    const json = JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => i) })
    const parts = [json.slice(0, 100), json.slice(100, 5000), json.slice(5000)]
    const { res, body } = await request(
      `${server.url}/json`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      parts,
    )
    expect([res.statusCode, body.toString()]).toEqual([200, 'json 5000 5000'])
  })

  it('a middleware that leaves the body alone leaves it to the Hono route, every byte once', async () => {
    const { res, body } = await request(`${server.url}/pass`, { method: 'POST' }, ['0123456789', 'abcdefghij', 'KLMNO'])
    expect([res.statusCode, body.toString()]).toEqual([200, 'hono 25'])
  })
})

it('replay: { maxBytes } raises the bound: 6 MiB read by the app still reaches Express whole', async () => {
  const server = await listen(legacy(fetchBridge(honoApp(), { replay: { maxBytes: 8 * MiB } })))
  try {
    const payload = Buffer.alloc(6 * MiB, 0x64)
    const { res, body } = await postBytes(server.url, '/audited/raw', payload)
    expect([res.statusCode, body.toString()]).toEqual([200, `raw ${6 * MiB}`])
  } finally {
    await server.close()
  }
})

it('replay: { maxBytes: 0 } keeps nothing: a body the app read and let fall through is a 413', async () => {
  const server = await listen(legacy(fetchBridge(honoApp(), { replay: { maxBytes: 0 } })))
  try {
    const { res, body } = await postBytes(server.url, '/audited/raw', 'tiny')
    expect(res.statusCode).toBe(413)
    expect(body.toString()).toMatch(/read 4 bytes .*more than the 0 kept/)
  } finally {
    await server.close()
  }
})

describe.each(modes.map(([name]) => name))('after a 413 for a body the app read past the limit (%s)', (name) => {
  it('the rest of the body leaves the connection: the next request on it is answered', async () => {
    const replay = { maxBytes: 1000 }
    const server = await listen(
      name === 'front door'
        ? fetchBridge(honoApp(), { replay, fallback: legacy() })
        : legacy(fetchBridge(honoApp(), { replay })),
    )
    try {
      const got: Buffer[] = []
      const socket = net.connect(server.port, '127.0.0.1')
      socket.on('data', (d) => got.push(d))
      const n = 2 * MiB
      socket.write(
        `POST /peek/raw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${n}\r\n\r\n`,
      )
      socket.write(Buffer.alloc(n, 0x66))
      expect(await waitFor(() => /^HTTP\/1\.1 413/.test(Buffer.concat(got).toString('latin1')), 3000)).toBe(true)
      got.length = 0
      socket.write('POST /hono HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi')
      expect(await waitFor(() => Buffer.concat(got).toString('latin1').endsWith('hono 2'), 3000)).toBe(true)
      socket.destroy()
    } finally {
      await server.close()
    }
  })
})
