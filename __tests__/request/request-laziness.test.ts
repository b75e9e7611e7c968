import { counts } from '../helpers/count-constructors.js'
import http from 'node:http'
import express from 'express'
import request from 'supertest'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { after, listen, rawRequest, request as get, sleep, type Running } from '../helpers/transport.js'

type Handler = (request: Request, env: HttpBindings) => Response | Promise<Response>

function expressWith(handler: Handler, setup?: (app: express.Express) => void) {
  const app = express()
  setup?.(app)
  app.use(fetchBridge(handler as any))
  return app
}

const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } })

let servers: Running[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})
async function serve(handler: Handler): Promise<Running> {
  const s = await listen(fetchBridge(handler as any))
  servers.push(s)
  return s
}

describe('method, url and headers are lazy', () => {
  it('reading them builds no real Request; repeated headers are kept', async () => {
    const before = counts.Request
    const s = await serve((req) =>
      json({
        method: req.method,
        url: req.url,
        multi: req.headers.get('x-multi'),
        instance: req instanceof Request,
        tag: Object.prototype.toString.call(req),
        built: counts.Request - before,
      }),
    )
    const raw = await rawRequest(
      s.port,
      'PUT /path?q=1 HTTP/1.1\r\nHost: example.test:8080\r\nX-Multi: a\r\nX-Multi: b\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    )
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))
    expect(body).toEqual({
      method: 'PUT',
      url: 'http://example.test:8080/path?q=1',
      multi: 'a, b',
      instance: true,
      tag: '[object Request]',
      built: 0,
    })
  })

  it('other members build the real Request once and agree with it', async () => {
    const before = counts.Request
    const app = expressWith((req) => json({ cache: req.cache, mode: req.mode, redirect: req.redirect, keepalive: req.keepalive, built: counts.Request - before }))
    const res = await request(app).get('/')
    expect(res.body).toEqual({ cache: 'default', mode: 'cors', redirect: 'follow', keepalive: false, built: 1 })
  })
})

describe('body', () => {
  it.each([
    ['text', (r: Request) => r.text(), 'héllo'],
    ['json', (r: Request) => r.json(), { a: [1, 'é'] }],
    ['arrayBuffer', async (r: Request) => Buffer.from(await r.arrayBuffer()).toString(), 'raw bytes'],
    ['bytes', async (r: Request) => Buffer.from(await (r as any).bytes()).toString(), 'raw bytes'],
    ['blob', async (r: Request) => { const b = await r.blob(); return [b.type, await b.text()] }, ['text/x-thing', 'blob text']],
  ] as const)('%s() reads the socket directly', async (_name, read, expected) => {
    const before = counts.Request
    const app = expressWith(async (req) => {
      const value = await read(req)
      return json({ value, built: counts.Request - before, used: req.bodyUsed })
    })
    const payload = typeof expected === 'string' ? expected : Array.isArray(expected) ? expected[1] : JSON.stringify(expected)
    const type = Array.isArray(expected) ? expected[0] : 'text/plain'
    const res = await request(app).post('/').set('content-type', type).send(payload)
    expect(res.body).toEqual({ value: expected, built: 0, used: true })
  })

  it('a byte order mark is dropped by text() like a real Request does', async () => {
    const app = expressWith(async (req) => new Response(JSON.stringify(await req.text())))
    const res = await request(app).post('/').set('content-type', 'text/plain').send(Buffer.from('\ufeffbom'))
    expect(JSON.parse(res.text)).toBe(await new Request('http://x/', { method: 'POST', body: '\ufeffbom' }).text())
  })

  it('reading twice rejects with a TypeError; bodyUsed is set', async () => {
    const app = expressWith(async (req) => {
      const before = req.bodyUsed
      await req.text()
      const err = await req.text().then(() => undefined, (e: Error) => e.constructor.name)
      const err2 = await req.arrayBuffer().then(() => undefined, (e: Error) => e.constructor.name)
      return json({ before, after: req.bodyUsed, err, err2 })
    })
    const res = await request(app).post('/').send('x')
    expect(res.body).toEqual({ before: false, after: true, err: 'TypeError', err2: 'TypeError' })
  })

  it('a GET has a null body and text() is empty', async () => {
    const app = expressWith(async (req) => json({ body: req.body, text: await req.text() }))
    const res = await request(app).get('/')
    expect(res.body).toEqual({ body: null, text: '' })
  })

  it('formData() goes through a real Request (url-encoded and multipart)', async () => {
    const before = counts.Request
    const app = expressWith(async (req) => {
      const form = await req.formData()
      const file = form.get('file')
      return json({
        a: form.getAll('a'),
        file: file instanceof Blob ? await file.text() : null,
        built: counts.Request - before,
      })
    })
    const url = await request(app).post('/').type('form').send('a=1&a=2')
    expect(url.body).toEqual({ a: ['1', '2'], file: null, built: 1 })
    const multi = await request(app).post('/').field('a', 'x').attach('file', Buffer.from('file content'), 'f.txt')
    expect(multi.body).toEqual({ a: ['x'], file: 'file content', built: 2 })
  })

  it('the body streams: the app sees the first chunk before the client has finished sending', async () => {
    let firstChunk!: () => void
    const sawFirst = new Promise<void>((r) => (firstChunk = r))
    const s = await serve(async (req) => {
      const reader = req.body!.getReader()
      let total = 0
      let first = true
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        total += value.byteLength
        if (first) firstChunk()
        first = false
      }
      return new Response(String(total))
    })
    const response = new Promise<string>((resolve, reject) => {
      const client = http.request(`${s.url}/upload`, { method: 'POST', agent: false }, (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve(text))
      })
      client.on('error', reject)
      client.write('first chunk')
      sawFirst.then(() => client.end('rest'))
    })
    const timeout = after(5000, 'timeout')
    expect(await Promise.race([response, timeout])).toBe(String('first chunk'.length + 'rest'.length))
  })

  it('backpressure: an app that stops reading stops the socket being read', async () => {
    const size = 16 * 1024 * 1024
    let bytesReadWhilePaused = -1
    const s = await serve(async (req, env) => {
      const reader = req.body!.getReader()
      let total = (await reader.read()).value!.byteLength
      await sleep(300)
      bytesReadWhilePaused = env.incoming.socket.bytesRead
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        total += value.byteLength
      }
      return new Response(String(total))
    })
    const res = await get(`${s.url}/`, { method: 'POST', headers: { 'content-length': size } }, Buffer.alloc(size, 7))
    expect(res.body.toString()).toBe(String(size))
    expect(bytesReadWhilePaused).toBeGreaterThan(0)
    expect(bytesReadWhilePaused).toBeLessThan(size / 4)
  })
})

describe('URL', () => {
  async function urlOf(target: string, headers = 'Host: example.test\r\n'): Promise<string> {
    const s = await serve((req) => new Response(req.url))
    const raw = await rawRequest(s.port, `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)
    return raw.slice(raw.indexOf('\r\n\r\n') + 4)
  }

  it.each([
    '/?a=1&a=2',
    '/caf%C3%A9/%E2%82%AC?q=%E2%82%AC&x=%20',
    '/a;b=c/d,e/~user/$%25?x=y?z',
    '/%2Fencoded%2fslash',
    '/p?q=a+b&empty=&=v',
  ])('path and query are byte-exact: %s', async (target) => {
    expect(await urlOf(target)).toBe(`http://example.test${target}`)
  })

  it.each(['/q?uote"d', '/a/b?x=/../', '/.well-known/x'])(
    'normalization matches a real Request: %s',
    async (target) => {
      expect(await urlOf(target)).toBe(new Request(`http://example.test${target}`).url)
    },
  )

  it('Express: the origin follows req.protocol and Host, with trust proxy off and on', async () => {
    const handler: Handler = (req) => new Response(req.url)
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' }
    const off = await request(expressWith(handler)).get('/p').set('host', 'internal:81').set(forwarded)
    expect(off.text).toBe('http://internal:81/p')
    const on = await request(expressWith(handler, (app) => app.set('trust proxy', true))).get('/p').set('host', 'internal:81').set(forwarded)
    expect(on.text).toBe('https://public.example/p')
    const loopbackOnly = await request(expressWith(handler, (app) => app.set('trust proxy', 'loopback'))).get('/p').set('x-forwarded-proto', 'https').set('host', 'h')
    expect(loopbackOnly.text).toBe('https://h/p')
  })

  it('node:http without a Host header (HTTP/1.0): the origin comes from the socket', async () => {
    const s = await serve((req) => new Response(req.url))
    const raw = await rawRequest(s.port, 'GET /no-host?x=1 HTTP/1.0\r\n\r\n')
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true)
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(`http://127.0.0.1:${s.port}/no-host?x=1`)
  })

  it('a Host header that cannot be part of a URL is a 400', async () => {
    const s = await serve((req) => new Response(req.url))
    const raw = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: bad/host\r\nConnection: close\r\n\r\n')
    expect(raw.startsWith('HTTP/1.1 400')).toBe(true)
  })
})

describe('signal', () => {
  it('is created lazily', async () => {
    const before = counts.AbortController
    const app = expressWith(() => new Response('no signal used'))
    await request(app).get('/')
    expect(counts.AbortController - before).toBe(0)
  })

  it('aborts when the client disconnects before the response finished', async () => {
    let aborted!: (reason: unknown) => void
    const abortedP = new Promise<unknown>((r) => (aborted = r))
    let entered!: () => void
    const enteredP = new Promise<void>((r) => (entered = r))
    const s = await serve(async (req) => {
      req.signal.addEventListener('abort', () => aborted(req.signal.reason))
      entered()
      await abortedP
      return new Response('too late')
    })
    const client = http.request(`${s.url}/`, { agent: false })
    client.on('error', () => {})
    client.end()
    await enteredP
    client.destroy()
    const reason = await Promise.race([abortedP, after(3000, 'not aborted')])
    expect((reason as Error).name).toBe('AbortError')
  })

  it('does not abort after a normal completed response, nor once the request body was read', async () => {
    const signals: AbortSignal[] = []
    const s = await serve(async (req) => {
      signals.push(req.signal)
      await req.text()
      return new Response('done')
    })
    const res = await get(`${s.url}/`, { method: 'POST' }, 'body')
    expect(res.body.toString()).toBe('done')
    await sleep(50)
    expect(signals).toHaveLength(1)
    expect(signals[0].aborted).toBe(false)
  })
})
