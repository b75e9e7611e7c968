import http from 'node:http'
import express from 'express'
import { fetchBridge, OriginalResponse } from '../../src/index.js'
import { listen, rawRequest, request, type Running } from '../helpers/transport.js'

type Handler = (request: Request) => Response | Promise<Response>

const servers: Running[] = []
afterAll(() => Promise.all(servers.map((s) => s.close())))

/** The same handler behind Express (which sets X-Powered-By first) and behind plain node:http. */
async function both(handler: Handler): Promise<Running[]> {
  const viaExpress = await listen(express().use(fetchBridge(handler)) as unknown as http.RequestListener)
  const bridge = fetchBridge(handler)
  const viaHttp = await listen((req, res) => bridge(req, res))
  servers.push(viaExpress, viaHttp)
  return [viaExpress, viaHttp]
}

function setCookieLines(raw: string): string[] {
  return raw
    .slice(0, raw.indexOf('\r\n\r\n'))
    .split('\r\n')
    .filter((line) => /^set-cookie:/i.test(line))
    .map((line) => line.slice(line.indexOf(':') + 1).trim())
}

async function rawGet(s: Running, path: string): Promise<string> {
  return rawRequest(s.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
}

describe('Set-Cookie', () => {
  it.each([
    ['appended after construction', () => {
      const res = new Response('x', { headers: { 'set-cookie': 'a=1; Path=/' } })
      res.headers.append('set-cookie', 'b=2; HttpOnly')
      return res
    }],
    ['given as a pair list', () => new Response('x', { headers: [['Set-Cookie', 'a=1; Path=/'], ['Set-Cookie', 'b=2; HttpOnly']] })],
    ['on a Headers init', () => {
      const headers = new Headers()
      headers.append('set-cookie', 'a=1; Path=/')
      headers.append('set-cookie', 'b=2; HttpOnly')
      return new Response(null, { status: 302, headers })
    }],
    ['on a real Response', () => {
      const res = new OriginalResponse('x', { headers: { 'set-cookie': 'a=1; Path=/' } })
      res.headers.append('set-cookie', 'b=2; HttpOnly')
      return res
    }],
  ])('several values %s go out as separate lines', async (_name, make) => {
    for (const s of await both(() => make())) {
      const raw = await rawGet(s, '/')
      expect(setCookieLines(raw)).toEqual(['a=1; Path=/', 'b=2; HttpOnly'])
    }
  })

  it('cookies set by earlier Express middleware are kept before the app’s', async () => {
    const app = express()
    app.use((_req, res, next) => {
      res.cookie('pre', '0')
      next()
    })
    app.use(fetchBridge(() => new Response('x', { headers: [['set-cookie', 'a=1'], ['set-cookie', 'b=2']] })))
    const s = await listen(app as unknown as http.RequestListener)
    servers.push(s)
    expect(setCookieLines(await rawGet(s, '/'))).toEqual(['pre=0; Path=/', 'a=1', 'b=2'])
  })
})

describe('status line', () => {
  it.each([
    [201, undefined, 'Created'],
    [404, undefined, 'Not Found'],
    [418, undefined, "I'm a Teapot"],
    [299, undefined, 'unknown'],
    [200, 'Fine Thanks', 'Fine Thanks'],
    [503, 'Back Soon', 'Back Soon'],
  ])('status %d with statusText %p gets reason phrase %p', async (status, statusText, reason) => {
    for (const make of [
      () => new Response('body', { status, statusText }),
      () => new OriginalResponse('body', { status, statusText }),
    ]) {
      for (const s of await both(() => make())) {
        const { res } = await request(`${s.url}/`)
        expect(res.statusCode).toBe(status)
        expect(res.statusMessage).toBe(reason)
      }
    }
  })
})

describe("the caller's header objects are never mutated", () => {
  it('one plain object and one Headers instance reused by two responses stay unchanged', async () => {
    const plain: Record<string, string> = { 'x-shared': '1', 'set-cookie': 's=1' }
    const shared = new Headers({ 'x-shared': '2', vary: 'Accept' })
    shared.append('set-cookie', 's=2')
    const plainBefore = JSON.stringify(plain)
    const sharedBefore = JSON.stringify([...shared])
    const app = express()
    app.use((_req, res, next) => {
      // Earlier middleware headers make the serializer merge Set-Cookie and Vary.
      res.setHeader('vary', 'Origin')
      res.cookie('pre', '0')
      next()
    })
    app.use(
      fetchBridge((req) => {
        const kind = new URL(req.url).pathname
        if (kind === '/plain') return new Response('text body', { headers: plain })
        if (kind === '/headers') return new Response(new Blob(['blob'], { type: 'text/x-b' }), { headers: shared })
        if (kind === '/json') return Response.json({ a: 1 }, { headers: shared })
        return new OriginalResponse('real', { headers: shared })
      }),
    )
    const s = await listen(app as unknown as http.RequestListener)
    servers.push(s)
    for (const path of ['/plain', '/headers', '/json', '/real']) {
      for (let i = 0; i < 2; i++) {
        const { res } = await request(`${s.url}${path}`)
        expect(res.statusCode).toBe(200)
        expect(res.headers['set-cookie']).toEqual(['pre=0; Path=/', path === '/plain' ? 's=1' : 's=2'])
        if (path !== '/plain') expect(res.headers.vary).toBe('Origin, Accept')
      }
    }
    expect(JSON.stringify(plain)).toBe(plainBefore)
    expect(JSON.stringify([...shared])).toBe(sharedBefore)
  })
})

describe('framing headers copied from another response', () => {
  // `new Response(await upstream.arrayBuffer(), { headers: upstream.headers })`: the upstream was
  // chunked, this body is fixed. Content-Length next to Transfer-Encoding is a framing conflict that
  // proxies such as nginx reject.
  it.each(['string', 'bytes', 'blob'])('a fixed %s body goes out with Content-Length only', async (kind) => {
    const headers = { 'transfer-encoding': 'chunked', 'content-length': '999', 'content-type': 'text/plain' }
    const body = kind === 'string' ? 'hello' : kind === 'bytes' ? new TextEncoder().encode('hello') : new Blob(['hello'])
    for (const s of await both(() => new Response(body, { headers }))) {
      const raw = await rawGet(s, '/')
      const head = raw.slice(0, raw.indexOf('\r\n\r\n')).toLowerCase()
      expect(head).toContain('content-length: 5\r\n')
      expect(head).not.toContain('transfer-encoding')
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe('hello')
    }
  })
})
