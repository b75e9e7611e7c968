import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { Hono } from 'hono'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { listen, rawRequest, request, type RawResponse, type Running } from '../helpers/transport.js'
import { failingStream, slowStream, timed } from '../helpers/stream-timing.js'

describe.each(expressVersions)('front-door mode on %s', (_name, express) => {
  const calls = { middleware: 0, errorHandler: 0 }
  /** URL each request had when it reached the server, keyed by the request object itself. */
  const arrived = new WeakMap<IncomingMessage, string | undefined>()

  function legacyApp() {
    const app = express()
    app.use((_req, res, next) => {
      calls.middleware++
      res.setHeader('x-express-middleware', 'ran')
      next()
    })
    app.use(express.json())
    app.get('/legacy', (_req, res) => {
      res.send('express legacy')
    })
    app.post('/echo', (req, res) => {
      res.json({ body: req.body, url: req.url })
    })
    app.get('/same-request', (req, res) => {
      res.json({ same: arrived.has(req), urlAtArrival: arrived.get(req), url: req.url })
    })
    app.get('/boom', () => {
      throw new Error('express boom')
    })
    app.get('/chunks', (_req, res) => {
      res.setHeader('content-type', 'text/event-stream')
      res.write('data: first\n\n')
      setTimeout(() => res.end('data: second\n\n'), 400)
    })
    app.use((err: Error & { status?: number }, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
      calls.errorHandler++
      res.status(err.status ?? 500).json({ handledByExpress: err.message })
    })
    return app
  }

  const hono = new Hono<{ Bindings: HttpBindings }>()
  hono.get('/moved', (c) => c.text('hono moved'))
  hono.post('/moved', async (c) => c.json({ got: await c.req.json() }))
  hono.get('/plain-node', (c) =>
    c.json({
      // Express would have swapped the prototype and added req.app / res.locals.
      expressRequest: 'app' in c.env.incoming,
      expressResponse: 'locals' in c.env.outgoing,
      headers: c.env.outgoing.getHeaderNames(),
    }),
  )
  hono.get('/stream', () => new Response(slowStream(), { headers: { 'content-type': 'text/event-stream' } }))
  hono.get('/hono-boom', () => {
    throw new Error('hono boom')
  })
  hono.onError((err, c) => c.text(`hono onError: ${err.message}`, 500))

  let front: Running
  let alone: Running
  beforeAll(async () => {
    const bridge = fetchBridge(hono, { fallback: legacyApp() })
    front = await listen((req: IncomingMessage, res: ServerResponse) => {
      arrived.set(req, req.url)
      bridge(req, res)
    })
    alone = await listen(legacyApp())
  })
  afterAll(async () => {
    await front.close()
    await alone.close()
  })
  beforeEach(() => {
    calls.middleware = 0
    calls.errorHandler = 0
  })

  describe('Hono routes', () => {
    it('answer without any Express middleware running', async () => {
      const { res, body } = await request(`${front.url}/moved`)
      expect(res.statusCode).toBe(200)
      expect(body.toString()).toBe('hono moved')
      expect(res.headers['x-express-middleware']).toBeUndefined()
      expect(res.headers['x-powered-by']).toBeUndefined()
      expect(calls.middleware).toBe(0)
    })

    it('get the plain node:http request and response, with no header set before them', async () => {
      const { body } = await request(`${front.url}/plain-node`)
      expect(JSON.parse(body.toString())).toEqual({ expressRequest: false, expressResponse: false, headers: [] })
    })

    it('read the request body themselves (no Express parser ran)', async () => {
      const { res, body } = await request(
        `${front.url}/moved`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        '{"a":1}',
      )
      expect(res.statusCode).toBe(200)
      expect(JSON.parse(body.toString())).toEqual({ got: { a: 1 } })
      expect(calls.middleware).toBe(0)
    })

    it('answer HEAD for GET routes with the length and no body', async () => {
      const { res, body } = await request(`${front.url}/moved`, { method: 'HEAD' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-length']).toBe('10')
      expect(body.length).toBe(0)
      expect(calls.middleware).toBe(0)
    })

    it('stream: headers and the first chunk arrive within 100 ms, not after 400 ms', async () => {
      const t = await timed(`${front.url}/stream`)
      expect(t.firstChunk).toBe('data: first\n\n')
      expect(t.all).toBe('data: first\n\ndata: second\n\n')
      expect(t.headersAt).toBeLessThan(100)
      expect(t.firstChunkAt).toBeLessThan(100)
    })

    it("errors are answered by hono.onError, never by Express's error handler", async () => {
      const { res, body } = await request(`${front.url}/hono-boom`)
      expect(res.statusCode).toBe(500)
      expect(body.toString()).toBe('hono onError: hono boom')
      expect(calls.errorHandler).toBe(0)
      expect(calls.middleware).toBe(0)
    })
  })

  describe('requests handed to Express', () => {
    it('are the same request objects, with req.url unchanged', async () => {
      const { body } = await request(`${front.url}/same-request?q=%20x`)
      expect(JSON.parse(body.toString())).toEqual({ same: true, urlAtArrival: '/same-request?q=%20x', url: '/same-request?q=%20x' })
    })

    // Each request goes to the front-door server and to the Express app alone; the answers must match.
    const cases: Array<[string, string, string, http.OutgoingHttpHeaders?, string?]> = [
      ['an Express route', 'GET', '/legacy'],
      ['an Express route with a query', 'GET', '/legacy?x=1&y=%C3%A9'],
      ['HEAD of an Express route', 'HEAD', '/legacy'],
      ["express.json() with the untouched body", 'POST', '/echo', { 'content-type': 'application/json' }, '{"a":[1,2],"b":"é"}'],
      ['a chunked body', 'POST', '/echo', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, '{"chunked":true}'],
      ["express.json()'s parse error reaching the error handler", 'POST', '/echo', { 'content-type': 'application/json' }, '{"a":'],
      ["Express's 404", 'GET', '/nowhere'],
      ["Express's 404 for a method Hono has routes for", 'DELETE', '/moved'],
      ["Express's error handler", 'GET', '/boom'],
    ]

    function comparable({ res, body }: RawResponse) {
      const { date: _date, ...headers } = res.headers
      return { status: res.statusCode, headers, body: body.toString() }
    }

    it.each(cases)('%s: same answer as the Express app alone', async (_case, method, path, headers = {}, body) => {
      const options = { method, headers }
      const viaFront = await request(`${front.url}${path}`, options, body)
      const middlewareCalls = calls.middleware
      const viaAlone = await request(`${alone.url}${path}`, options, body)
      expect(comparable(viaFront)).toEqual(comparable(viaAlone))
      expect(middlewareCalls).toBe(1)
    })

    it('stream as Express writes them (first chunk within 100 ms)', async () => {
      const t = await timed(`${front.url}/chunks`)
      expect(t.all).toBe('data: first\n\ndata: second\n\n')
      expect(t.firstChunk).toBe('data: first\n\n')
      expect(t.firstChunkAt).toBeLessThan(100)
    })
  })

  describe('bad input', () => {
    it('a Host header that cannot form a URL is handed to the fallback, which answers as alone', async () => {
      const viaFront = await rawRequest(front.port, `GET /legacy HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n`)
      const viaAlone = await rawRequest(alone.port, `GET /legacy HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n`)
      expect(viaFront).toMatch(/^HTTP\/1\.1 200 /)
      expect(viaFront.slice(viaFront.indexOf('\r\n\r\n'))).toBe(viaAlone.slice(viaAlone.indexOf('\r\n\r\n')))
      expect(calls.middleware).toBe(2)
    })
  })
})

describe('front-door errors that escape the app', () => {
  let s: Running | undefined
  afterEach(async () => {
    await s?.close()
    s = undefined
  })

  it('answer a plain 500 from the bridge when hono.onError rethrows (the fallback is not entered)', async () => {
    const hono = new Hono()
    hono.get('/boom', () => {
      throw new Error('secret detail')
    })
    hono.onError((err) => {
      throw err
    })
    let fallbackCalls = 0
    s = await listen(fetchBridge(hono, { fallback: (_req, res: ServerResponse) => (fallbackCalls++, res.end('fallback')) }))
    const { res, body } = await request(`${s.url}/boom`)
    expect(res.statusCode).toBe(500)
    expect(body.toString()).toBe('Internal Server Error')
    expect(fallbackCalls).toBe(0)
  })

  it('use the status of an error that carries one', async () => {
    const fetchApp = () => Promise.reject(Object.assign(new Error('too big'), { status: 413 }))
    s = await listen(fetchBridge(fetchApp, { fallback: (_req, res: ServerResponse) => res.end('fallback') }))
    const { res, body } = await request(`${s.url}/x`)
    expect(res.statusCode).toBe(413)
    expect(body.toString()).toBe('Payload Too Large')
  })

  it('a fallback that throws gets a 500 instead of crashing the server', async () => {
    const fallback = () => {
      throw new Error('broken fallback')
    }
    s = await listen(fetchBridge(new Hono(), { fallback }))
    const { res } = await request(`${s.url}/x`)
    expect(res.statusCode).toBe(500)
  })

  it('cut the connection when the app fails after the headers went out', async () => {
    const hono = new Hono()
    hono.get('/broken', () => new Response(failingStream('stream failed')))
    s = await listen(fetchBridge(hono, { fallback: (_req, res: ServerResponse) => res.end('fallback') }))
    await expect(request(`${s.url}/broken`)).rejects.toThrow(/aborted|socket hang up|ECONNRESET/)
  })
})
