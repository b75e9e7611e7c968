import express from 'express'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { secureHeaders } from 'hono/secure-headers'
import { setCookie } from 'hono/cookie'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'
import { LightHeaders } from '../../src/core/light-headers.js'

// The bridge installs the Map-backed Headers as globalThis.Headers (with the global Response), so the
// Headers Hono's context builds for `c.header()`, cors and secure-headers are that kind too. It must
// stay a Headers to every reader: instanceof both ways, the platform's classes and fetch taking it.

const PlatformHeaders = globalThis.Headers
const PlatformRequest = globalThis.Request
const PlatformResponse = globalThis.Response

const hono = new Hono()
hono.use('/mw/*', cors({ origin: 'https://a.example', exposeHeaders: ['x-id'] }), secureHeaders())
hono.get('/mw/thing', (c) => {
  c.header('x-id', '7')
  c.header('x-many', 'a')
  c.header('x-many', 'b', { append: true })
  setCookie(c, 's', '1')
  setCookie(c, 't', '2')
  return c.json({ light: Object.getPrototypeOf(c.res.headers) !== PlatformHeaders.prototype })
})
const app = express()
app.use(fetchBridge(hono))

it('is installed as globalThis.Headers when a bridge is made', () => {
  expect(globalThis.Headers).toBe(LightHeaders)
  expect(globalThis.Headers).not.toBe(PlatformHeaders)
  expect(globalThis.Headers.name).toBe('Headers')
})

it('answers instanceof Headers for the platform kind, and is one of the platform kind', () => {
  const light = new Headers({ a: '1' })
  const platform = new PlatformHeaders({ a: '1' })
  expect(light instanceof Headers).toBe(true)
  expect(platform instanceof Headers).toBe(true)
  expect(light instanceof PlatformHeaders).toBe(true)
  expect(new PlatformResponse('x').headers instanceof Headers).toBe(true)
  expect({} instanceof Headers).toBe(false)
  class Mine extends Headers {}
  expect(new Mine({ b: '2' }) instanceof Mine).toBe(true)
  expect(new Mine({ b: '2' }).get('b')).toBe('2')
  expect(light instanceof Mine).toBe(false)
  expect(() => (Headers as unknown as () => unknown)()).toThrow(TypeError)
})

it("is taken by the platform's Request, Response and fetch as any Headers", async () => {
  const light = new Headers([
    ['x-a', '1'],
    ['set-cookie', 'a=1'],
    ['set-cookie', 'b=2'],
  ])
  const req = new PlatformRequest('http://localhost/', { headers: light })
  expect(req.headers.get('x-a')).toBe('1')
  const res = new PlatformResponse('x', { headers: light })
  expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  // A copy, as the platform's: later changes to the copy leave the source alone.
  const copy = new Headers(light)
  copy.set('x-a', '2')
  copy.append('set-cookie', 'c=3')
  expect(light.get('x-a')).toBe('1')
  expect(light.getSetCookie()).toEqual(['a=1', 'b=2'])
  expect([...copy]).toEqual([...new PlatformHeaders(copy)])
})

/** The same app on the platform's own Headers and Response, as without the bridge. */
async function onPlatform(path: string, headers: Record<string, string>): Promise<Response> {
  const g = globalThis as { Headers: unknown; Response: unknown }
  const installed = [g.Headers, g.Response]
  g.Headers = PlatformHeaders
  g.Response = PlatformResponse
  try {
    return await hono.request(path, { headers })
  } finally {
    ;[g.Headers, g.Response] = installed
  }
}

it("serves Hono middleware's headers (cors, secure-headers, c.header, cookies) as Hono on the platform's Headers", async () => {
  const res = await request(app).get('/mw/thing').set('origin', 'https://a.example')
  const alone = await onPlatform('/mw/thing', { origin: 'https://a.example' })
  expect(res.status).toBe(alone.status)
  expect(res.body).toEqual({ light: true })
  expect(await alone.json()).toEqual({ light: false })
  for (const [name, value] of alone.headers) {
    if (name === 'set-cookie' || name === 'content-length') continue
    expect([name, res.headers[name]]).toEqual([name, value])
  }
  expect(res.headers['set-cookie']).toEqual(alone.headers.getSetCookie())
  expect(res.headers['access-control-allow-origin']).toBe('https://a.example')
  expect(res.headers['x-many']).toBe('a, b')
})

/** The error a call throws, by class and message (the platform's errors come from Node's realm). */
function thrown(make: () => unknown): [string, string] | undefined {
  try {
    make()
  } catch (err) {
    return [(err as Error).name, (err as Error).message]
  }
  return undefined
}

it("refuses what the platform's refuses: a null init, symbols, an item that is no pair, a missing argument", () => {
  expect(thrown(() => new Headers(null as never))).toEqual(thrown(() => new PlatformHeaders(null as never)))
  const setOne = (h: Headers) => (h.set as (name: string) => void)('a')
  expect(thrown(() => setOne(new Headers()))).toEqual(thrown(() => setOne(new PlatformHeaders())))
  // Node 20 and 22 word these messages differently from 24: the kind of error is what must agree.
  for (const init of [[['a', Symbol('s')]], { a: Symbol('s') }, [[Symbol('s'), 'x']], [5]]) {
    expect(thrown(() => new Headers(init as never))?.[0]).toBe('TypeError')
    expect(thrown(() => new PlatformHeaders(init as never))?.[0]).toBe('TypeError')
  }
  expect(thrown(() => new Headers([5] as never))?.[1]).toMatch(/init\[0\] \(5\) is not iterable/)
})

it("hands its methods' calls on a platform Headers (a fetch() response's) to the platform's", () => {
  const platform = new PlatformResponse('x', { headers: { 'x-a': '1', 'set-cookie': 'a=1' } }).headers
  const proto = Headers.prototype
  expect(proto.get.call(platform, 'x-a')).toBe('1')
  expect(proto.has.call(platform, 'x-b')).toBe(false)
  expect(proto.getSetCookie.call(platform)).toEqual(['a=1'])
  expect([...proto.entries.call(platform)]).toEqual([...platform])
  expect([...proto.keys.call(platform)]).toEqual([...platform.keys()])
  const copy = new PlatformHeaders(platform)
  proto.set.call(copy, 'x-b', '2')
  proto.append.call(copy, 'x-b', '3')
  proto.delete.call(copy, 'x-a')
  const seen: string[] = []
  proto.forEach.call(copy, (value: string, name: string) => seen.push(`${name}=${value}`))
  expect(seen).toEqual(['content-type=text/plain;charset=UTF-8', 'set-cookie=a=1', 'x-b=2, 3'])
  // Anything else is refused, as the platform refuses it.
  expect(thrown(() => proto.get.call({} as Headers, 'a'))?.[0]).toBe('TypeError')
})
