import http2 from 'node:http2'
import https from 'node:https'
import path from 'node:path'
import zlib from 'node:zlib'
import compression from 'compression'
import cors from 'cors'
import session from 'express-session'
import helmet from 'helmet'
import multer from 'multer'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { connect, h2Request, listenH2, testCertificate, type H2Server } from '../helpers/h2.js'

// The Express fallback behind the front door answers an HTTP/2 request as it answers the same request
// over HTTP/1.1 on the same server (allowHTTP1): status, headers and body, through the middleware
// users run behind such a server. Only what HTTP/2 has no place for differs: connection-specific
// fields (Connection, Keep-Alive, Transfer-Encoding) and the Date.

const { key, cert } = testCertificate()
const STATIC = path.join(__dirname, '..', 'fixtures', 'static')

interface Case {
  name: string
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** The request needs the cookie a previous request of the same protocol got. */
  cookie?: boolean
}

const boundary = '----h2test'
const multipart = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nreport\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n` +
    `${'x'.repeat(5000)}\r\n--${boundary}--\r\n`,
)

const CASES: Case[] = [
  { name: 'express.json', method: 'POST', path: '/json', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' },
  {
    name: 'express.urlencoded',
    method: 'POST',
    path: '/form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1&b=two+words',
  },
  { name: 'express-session: a new session', path: '/session' },
  { name: 'express-session: the same session', path: '/session', cookie: true },
  { name: 'express.static', path: '/static/site.css' },
  { name: 'express.static, a range', path: '/static/site.css', headers: { range: 'bytes=2-5' } },
  { name: 'express.static, conditional', path: '/static/site.css', headers: { 'if-none-match': '*' } },
  { name: 'res.sendFile with a range', path: '/file', headers: { range: 'bytes=-4' } },
  { name: 'compression', path: '/big', headers: { 'accept-encoding': 'gzip' } },
  { name: 'helmet', path: '/helmet' },
  { name: 'cors preflight', method: 'OPTIONS', path: '/cors', headers: { origin: 'https://example.com', 'access-control-request-method': 'PUT' } },
  { name: 'cors', path: '/cors', headers: { origin: 'https://example.com' } },
  {
    name: 'multer upload',
    method: 'POST',
    path: '/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipart,
  },
  { name: 'res.redirect', path: '/old?x=1' },
  { name: 'error handler', path: '/fail' },
  { name: 'HEAD', method: 'HEAD', path: '/helmet' },
  { name: 'not found', path: '/nothing-here' },
]

/** What is compared: the fields HTTP/2 cannot carry, and values that differ on every request, left out. */
function comparable(status: number, headers: Record<string, unknown>, body: Buffer) {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower.startsWith(':') || ['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(lower)) continue
    kept[lower] = String(value).replace(/connect\.sid=[^;]+/g, 'connect.sid=…')
  }
  // node:http2 never sends Content-Length with a 204 or 304 (RFC 9110 §8.6); node:http sends what cors set.
  if (status === 204 || status === 304) delete kept['content-length']
  let text = body.toString('latin1')
  if (headers['content-encoding'] === 'gzip') text = `gzip:${zlib.gunzipSync(body).toString('utf8')}`
  // A session id is new on each protocol: so is the ETag of a body holding it.
  if (/"id":"[^"]+"/.test(text) && kept.etag !== undefined) kept.etag = '…'
  return { status, headers: kept, body: text.replace(/"id":"[^"]+"/, '"id":…') }
}

describe.each(expressVersions)('%s behind the front door, HTTP/2 and HTTP/1.1', (_name, express) => {
  let srv: H2Server
  beforeAll(async () => {
    const app = express()
    app.use(helmet({ hsts: false }))
    app.use(cors({ origin: 'https://example.com' }))
    app.use(compression({ threshold: 100 }))
    app.use(session({ secret: 'test', resave: false, saveUninitialized: true, name: 'connect.sid' }))
    app.use('/static', express.static(STATIC, { etag: true, lastModified: false }))
    app.post('/json', express.json(), (req, res) => res.json({ body: req.body, type: req.get('content-type') }))
    app.post('/form', express.urlencoded({ extended: false }), (req, res) => res.json(req.body))
    app.get('/session', (req, res) => {
      const s = req.session as unknown as { views?: number }
      s.views = (s.views ?? 0) + 1
      res.json({ views: s.views, id: req.sessionID })
    })
    app.get('/file', (_req, res) => res.sendFile(path.join(STATIC, 'site.css'), { lastModified: false }))
    app.get('/big', (_req, res) => res.type('text').send('compressible '.repeat(500)))
    app.get('/helmet', (req, res) => res.send(`host=${req.hostname} secure=${req.secure} ip=${req.ip}`))
    app.get('/cors', (_req, res) => res.json({ ok: true }))
    app.put('/cors', (_req, res) => res.json({ put: true }))
    const upload = multer({ storage: multer.memoryStorage() })
    app.post('/upload', upload.single('file'), (req, res) => {
      res.json({ title: req.body.title, size: req.file?.size, name: req.file?.originalname })
    })
    app.get('/old', (req, res) => res.redirect(301, `/new?from=${req.query.x}`))
    app.get('/fail', (_req, _res, next) => next(Object.assign(new Error('broken'), { status: 422 })))
    app.use((err: Error & { status?: number }, _req: unknown, res: { status(n: number): { json(v: unknown): void } }, _next: unknown) => {
      res.status(err.status ?? 500).json({ error: err.message })
    })
    const hono = new Hono()
    hono.get('/hono', (c) => c.text('hono'))
    const handler = fetchBridge(hono, { fallback: app }) as unknown as (
      req: http2.Http2ServerRequest,
      res: http2.Http2ServerResponse,
    ) => void
    srv = await listenH2(http2.createSecureServer({ key, cert, allowHTTP1: true }, handler), true)
  })
  afterAll(() => srv.close())

  async function overHttp2(session: http2.ClientHttp2Session, c: Case, cookie: string | undefined) {
    const headers: http2.OutgoingHttpHeaders = { ':method': c.method ?? 'GET', ':path': c.path, ...c.headers }
    // As curl and browsers send it: a known length is declared.
    if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body))
    if (cookie !== undefined) headers.cookie = cookie
    const res = await h2Request(session, headers, c.body)
    return { status: res.status, headers: res.headers as Record<string, unknown>, body: res.body }
  }

  function overHttp1(c: Case, cookie: string | undefined) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const headers: Record<string, string> = { ...c.headers }
      if (cookie !== undefined) headers.cookie = cookie
      if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body))
      const req = https.request(
        { host: '127.0.0.1', port: srv.port, path: c.path, method: c.method ?? 'GET', headers, rejectUnauthorized: false, agent: false },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
        },
      )
      req.on('error', reject)
      req.end(c.body)
    })
  }

  it('answers every case alike over HTTP/2 and HTTP/1.1', async () => {
    const session = await connect(srv.origin)
    let h1Cookie: string | undefined
    let h2Cookie: string | undefined
    try {
      for (const c of CASES) {
        const one = await overHttp1(c, c.cookie ? h1Cookie : undefined)
        const two = await overHttp2(session, c, c.cookie ? h2Cookie : undefined)
        const setCookie = (h: Record<string, unknown>) => {
          const v = h['set-cookie'] as string[] | string | undefined
          return v === undefined ? undefined : String(Array.isArray(v) ? v[0] : v).split(';')[0]
        }
        h1Cookie ??= setCookie(one.headers)
        h2Cookie ??= setCookie(two.headers)
        expect({ case: c.name, ...comparable(two.status, two.headers, two.body) }).toEqual({
          case: c.name,
          ...comparable(one.status, one.headers, one.body),
        })
      }
    } finally {
      session.close()
    }
  })

  it('gives Express req.hostname, req.protocol, req.ip and the headers without pseudo-headers', async () => {
    const session = await connect(srv.origin)
    try {
      const res = await h2Request(session, { ':path': '/helmet' })
      expect(res.text).toBe('host=127.0.0.1 secure=true ip=127.0.0.1')
      const echoed = await h2Request(session, { ':method': 'POST', ':path': '/json', 'content-type': 'application/json' }, '{"x":1}')
      expect(JSON.parse(echoed.text)).toEqual({ body: { x: 1 }, type: 'application/json' })
    } finally {
      session.close()
    }
  })
})
