import type http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, OriginalResponse } from '../../src/index.js'
import { parseHead, raw, listen, type Running } from '../helpers/transport.js'

// What clients and apps get wrong: a clear status code or next(err), never a crash or a hang.

function plainApp(request: Request): unknown {
  const path = new URL(request.url).pathname
  switch (path) {
    case '/url':
      return new Response(request.url)
    case '/crlf-value':
      return new Response('x', { headers: { 'x-ok': '1', 'x-bad': 'a\r\nInjected: yes' } })
    case '/lf-value':
      return new Response('x', { headers: [['x-bad', 'a\nb']] })
    case '/bad-name':
      return new Response('x', { headers: { 'bad name': 'x' } })
    case '/crlf-stream':
      return new Response(
        new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1)) }),
        { headers: { 'x-bad': 'a\r\nb' } },
      )
    case '/object':
      return { status: 200, body: 'not a Response' }
    case '/string':
      return 'not a Response'
    case '/number':
      return 42
    case '/promise-object':
      return Promise.resolve({ body: 'still not a Response' })
    case '/response-error':
      return OriginalResponse.error()
    case '/used-body':
      return (async () => {
        const r = new OriginalResponse('already read')
        await r.text()
        return r
      })()
    case '/throws':
      throw new Error('sync failure')
    case '/rejects':
      return Promise.reject(new Error('async failure'))
    case '/errors-mid-stream':
      return new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first chunk;'))
          },
          pull(controller) {
            return new Promise((_, reject) => setTimeout(() => {
              controller.error(new Error(STREAM_FAILURE))
              reject(new Error(STREAM_FAILURE))
            }, 20))
          },
        }),
      )
    case '/after':
      return new Response('after')
  }
  return undefined
}

const hono = new Hono()
hono.post('/json/on-error', async (c) => c.json(await c.req.json()))
hono.post('/json/try-catch', async (c) => {
  try {
    return c.json(await c.req.json())
  } catch (err) {
    return c.json({ caught: (err as Error).name }, 422)
  }
})
hono.get('/hono-crlf', (c) => c.body('x', 200, { 'x-bad': 'a\r\nb' }))
hono.onError((err, c) => c.json({ onError: err.name }, 400))

const STREAM_FAILURE = 'producer failed'
let expressErrors: unknown[] = []
const servers: Array<[string, () => http.RequestListener]> = [
  ['node:http', () => {
    const plain = fetchBridge(plainApp)
    const honoBridge = fetchBridge(hono)
    return (req, res) => (req.url!.startsWith('/json') || req.url!.startsWith('/hono') ? honoBridge : plain)(req, res)
  }],
  ['Express', () => {
    const app = express()
    const plain = fetchBridge(plainApp)
    const honoBridge = fetchBridge(hono)
    app.use((req, res, next) => (req.url.startsWith('/json') || req.url.startsWith('/hono') ? honoBridge : plain)(req, res, next))
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      expressErrors.push(err)
      const status = (err as { status?: number }).status ?? 500
      res.status(status).type('text').send(`express error handler: ${status}`)
    })
    return app as unknown as http.RequestListener
  }],
]

describe.each(servers)('under %s', (name, make) => {
  let server: Running
  const isExpress = name === 'Express'
  beforeAll(async () => {
    server = await listen(make())
  })
  beforeEach(() => {
    expressErrors = []
  })
  afterAll(() => server.close())

  const get = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${server.port}${path}`, init)
  const errorBody = (status: number) => (isExpress ? `express error handler: ${status}` : status === 400 ? 'Bad Request' : 'Internal Server Error')

  it('HTTP/1.0 request without Host: served, URL from the local address', async () => {
    const result = await raw(server.port, 'GET /url HTTP/1.0\r\n\r\n')
    const head = parseHead(result.data)
    expect(head.status).toBe(200)
    expect(head.rest.toString()).toBe(`http://127.0.0.1:${server.port}/url`)
  })

  // The last five pass a character check but no URL parser accepts them (bad IPv4/IPv6, port, %-escape).
  it.each(['[::bad', 'a b', 'evil.example/path', 'host:1:2', 'x@y', '999.1.1.1', '1.2.3.4.5', 'a:99999', '[1:2]', 'a%zz'])(
    isExpress ? 'invalid Host %j → handed on to Express (its 404 here), no error' : 'invalid Host %j → 400',
    async (host) => {
      const result = await raw(server.port, `GET /url HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      const head = parseHead(result.data)
      expect(head.status).toBe(isExpress ? 404 : 400)
      if (!isExpress) expect(head.rest.toString()).toBe('Bad Request')
      expect(expressErrors).toEqual([])
    },
  )

  // The Response constructor refuses such headers, as the platform's does: the app throws.
  it.each(['/crlf-value', '/lf-value', '/bad-name', '/crlf-stream'])('response header with CR/LF or an invalid name (%s) → 500, nothing injected', async (path) => {
    const result = await raw(server.port, `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`)
    const head = parseHead(result.data)
    const text = result.data.toString('latin1')
    expect(head.status).toBe(500)
    expect(head.rest.toString()).toBe(errorBody(500))
    expect(text).not.toMatch(/injected/i)
    expect(head.headers['x-ok']).toBeUndefined()
    if (isExpress) expect(expressErrors).toHaveLength(1)
  })

  it('a bad header value given to Hono reaches its onError, as with Hono alone', async () => {
    const alone = await hono.request('/hono-crlf')
    const result = await raw(server.port, `GET /hono-crlf HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`)
    const head = parseHead(result.data)
    expect([head.status, head.rest.toString()]).toEqual([alone.status, await alone.text()])
    expect(alone.status).toBe(400)
    expect(result.data.toString('latin1')).not.toMatch(/a\r\nb/)
    expect(expressErrors).toEqual([])
  })

  it.each(['/object', '/string', '/number', '/promise-object', '/response-error', '/used-body', '/throws', '/rejects'])(
    'app returning a non-Response or failing (%s) → 500',
    async (path) => {
      const res = await get(path)
      expect(res.status).toBe(500)
      expect(await res.text()).toBe(errorBody(500))
      if (isExpress) expect(expressErrors).toHaveLength(1)
    },
  )

  it('body stream failing after the first chunk: the connection is cut, the body is incomplete', async () => {
    const result = await raw(server.port, 'GET /errors-mid-stream HTTP/1.1\r\nHost: test\r\n\r\n')
    const head = parseHead(result.data)
    expect(head.status).toBe(200)
    expect(head.headers['transfer-encoding']).toBe('chunked')
    const body = head.rest.toString('latin1')
    expect(body).toContain('first chunk;')
    // No terminating zero-length chunk: the client can tell the body is incomplete.
    expect(body).not.toMatch(/(^|\r\n)0\r\n\r\n$/)
    expect(result.ended).not.toBe('open')
    // And a fetch client reports it as an error rather than a short success.
    const res = await get('/errors-mid-stream')
    await expect(res.text()).rejects.toThrow()
    const after = await get('/after')
    expect(await after.text()).toBe('after')
    // Express error handlers still hear of it (with res.headersSent), as for Express's own routes.
    if (isExpress) {
      expect(expressErrors).toHaveLength(2)
      for (const err of expressErrors) expect((err as Error).message).toBe(STREAM_FAILURE)
    }
  })

  it.each([
    ['/json/on-error', 400, { onError: 'SyntaxError' }],
    ['/json/try-catch', 422, { caught: 'SyntaxError' }],
  ])('malformed JSON in %s reaches the app’s own error handling', async (path, status, body) => {
    const res = await get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a": ' })
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual(body)
    if (isExpress) expect(expressErrors).toHaveLength(0)
  })

  it('still serving after all of the above', async () => {
    const res = await get('/after')
    expect(await res.text()).toBe('after')
  })
})
