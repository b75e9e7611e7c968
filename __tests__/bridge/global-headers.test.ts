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
