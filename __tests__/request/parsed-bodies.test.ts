import { gzipSync } from 'node:zlib'
import request from 'supertest'
import { Hono } from 'hono'
import multer from 'multer'
import type { RequestHandler, Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

type Express = (typeof expressVersions)[number][1]

function honoApp() {
  const hono = new Hono()
  const length = (c: { req: { header(name: string): string | undefined } }) => c.req.header('content-length') ?? null
  hono.post('/json', async (c) => c.json({ body: await c.req.json(), length: length(c) }))
  hono.post('/form', async (c) => c.json({ body: await c.req.parseBody({ all: true }), length: length(c) }))
  hono.post('/text', async (c) => {
    const text = await c.req.text()
    return c.json({ body: text, length: length(c), bytes: Buffer.byteLength(text) })
  })
  hono.post('/bytes', async (c) => {
    const buf = Buffer.from(await c.req.arrayBuffer())
    return c.json({ body: buf.toString('base64'), length: length(c), bytes: buf.byteLength })
  })
  hono.post('/formdata', async (c) => c.json({ body: [...(await c.req.formData()).entries()] }))
  hono.post('/stream', async (c) => c.json({ body: await new Response(c.req.raw.body).text() }))
  hono.post('/ignore-body', (c) => c.text('did not read the body'))
  return hono
}

function makeApp(express: Express, parsers: RequestHandler[]) {
  const app = express()
  for (const parser of parsers) app.use(parser)
  app.use(fetchBridge(honoApp()))
  app.use((err: Error, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    res.status(500).json({ error: `${err.name}: ${err.message}` })
  })
  return app
}

const data = { name: 'Jörg', nested: { list: [1, 2, 'x'], flag: true, none: null }, n: 1.5 }
// Rebuilt JSON is JSON.stringify(req.body): the same data, and the same bytes for compact JSON.
const json = JSON.stringify(data)
const prettyJson = JSON.stringify(data, null, 2)
const form = 'name=J%C3%B6rg&tags=a&tags=b&empty=&sp=a+b&user%5Bname%5D=x&user%5Broles%5D=r1&user%5Broles%5D=r2'
const text = 'plain text ✓ with unicode\nsecond line'
const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i))

// Each body, with its Content-Type, sent to every route that reads it back in another way.
const sends: Array<[type: string, body: string | Buffer, routes: string[]]> = [
  ['application/json', json, ['/json', '/text', '/stream']],
  ['application/json; charset=utf-8', prettyJson, ['/json']],
  ['application/json; charset=utf-8', json, ['/bytes']],
  ['application/x-www-form-urlencoded', form, ['/form', '/formdata', '/text']],
  ['text/plain; charset=utf-8', text, ['/text']],
  ['text/plain', text, ['/bytes']],
  ['application/octet-stream', bytes, ['/bytes', '/stream']],
]
const cases = sends.flatMap(([type, body, routes]) => routes.map((route) => [route, type, body] as [route: string, type: string, body: string | Buffer]))

describe.each(expressVersions)('bodies already read by Express parsers on %s', (_name, express) => {
  const parserSets: Array<[string, RequestHandler[]]> = [
    ['express.json()', [express.json()]],
    ['express.urlencoded({ extended: true })', [express.urlencoded({ extended: true })]],
    ['express.urlencoded({ extended: false })', [express.urlencoded({ extended: false })]],
    ['express.text()', [express.text()]],
    ['express.raw()', [express.raw()]],
    [
      'all parsers',
      [express.json(), express.urlencoded({ extended: true }), express.text(), express.raw({ type: 'application/octet-stream' })],
    ],
  ]
  const baseline = makeApp(express, [])

  describe.each(parserSets)('after %s', (_parser, parsers) => {
    const app = makeApp(express, parsers)
    it.each(cases)('%s with %s reads the same data as without the parser', async (route, type, body) => {
      const expected = await request(baseline).post(route).type(type).send(body).timeout(5000)
      expect(expected.status).toBe(200)
      const actual = await request(app).post(route).type(type).send(body).timeout(5000)
      expect(actual.status).toBe(200)
      expect(actual.body.body).toEqual(expected.body.body)
      // A rebuilt body announces its own length.
      if (actual.body.bytes !== undefined) expect(actual.body.length).toBe(String(actual.body.bytes))
    })
  })

  it('uses req.rawBody kept by a verify callback, byte for byte', async () => {
    const keepRaw = (req: ExpressRequest & { rawBody?: Buffer }, _res: unknown, buf: Buffer) => {
      req.rawBody = buf
    }
    const app = makeApp(express, [express.json({ verify: keepRaw })])
    const res = await request(app).post('/text').type('json').send(prettyJson).timeout(5000).expect(200)
    expect(res.body.body).toBe(prettyJson)
    expect(res.body.length).toBe(String(Buffer.byteLength(prettyJson)))
  })

  it('rebuilds a gzip body that the parser inflated, without its Content-Encoding', async () => {
    const hono = new Hono()
    hono.post('/gz', async (c) => c.json({ body: await c.req.json(), encoding: c.req.header('content-encoding') ?? null }))
    const app = express()
    app.use(express.json())
    app.use(fetchBridge(hono))
    const res = await request(app)
      .post('/gz')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize((buf: Buffer) => buf as unknown as string)
      .send(gzipSync(json))
      .timeout(5000)
      .expect(200)
    expect(res.body).toEqual({ body: JSON.parse(json), encoding: null })
  })

  it('encodes text back with the charset express.text() decoded it with', async () => {
    const app = makeApp(express, [express.text({ type: 'text/*' })])
    const latin1 = Buffer.from('café', 'latin1')
    const res = await request(app).post('/bytes').set('content-type', 'text/plain; charset=iso-8859-1').send(latin1).timeout(5000)
    expect(res.status).toBe(200)
    expect(res.body.body).toBe(latin1.toString('base64'))
  })

  it('reads the stream when a parser skipped the request (content type it does not handle)', async () => {
    // Express 4's json() sets req.body = {} even when it skips: the stream is still unread.
    const app = makeApp(express, [express.json()])
    const res = await request(app).post('/text').type('text/plain').send(text).timeout(5000).expect(200)
    expect(res.body.body).toBe(text)
  })

  describe('a body consumed by multer', () => {
    function multerApp() {
      const hono = new Hono()
      hono.onError((err) => {
        throw err
      })
      hono.post('/upload', async (c) => c.json(await c.req.parseBody()))
      hono.post('/raw-text', async (c) => c.text(await c.req.raw.text()))
      hono.post('/fields', (c) => c.json({ fields: (c.env as { incoming: { body: unknown } }).incoming.body }))
      const app = express()
      app.use(multer().any())
      app.use(fetchBridge(hono))
      app.use((err: Error, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
        res.status(500).json({ error: `${err.name}: ${err.message}` })
      })
      return app
    }

    it('rejects body reads with a descriptive TypeError (here handed to next(err))', async () => {
      const app = multerApp()
      for (const route of ['/upload', '/raw-text']) {
        const res = await request(app).post(route).field('a', '1').attach('f', Buffer.from('file'), 'f.txt').timeout(5000)
        expect(res.status).toBe(500)
        expect(res.body.error).toMatch(/^TypeError: .*multipart\/form-data.*already consumed by earlier middleware/)
      }
    })

    it('still serves routes that do not read the body', async () => {
      const res = await request(multerApp()).post('/fields').field('a', '1').timeout(5000).expect(200)
      expect(res.body).toEqual({ fields: { a: '1' } })
    })
  })
})
