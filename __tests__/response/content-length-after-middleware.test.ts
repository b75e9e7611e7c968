import compression from 'compression'
import express from 'express'
import { Hono, type MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { etag } from 'hono/etag'
import { secureHeaders } from 'hono/secure-headers'
import request from 'supertest'
import { fetchBridge, OriginalResponse } from '../../src/index.js'
import { lightState } from '../../src/response/response.js'

/**
 * A body that is complete when the answer is written goes out with an exact Content-Length, whatever
 * middleware did to the Response after next(); the common case (cors, secure-headers) stays on the
 * fast path.
 */

const BODY = { hello: 'world', list: [1, 2, 3] }
const JSON_TEXT = JSON.stringify(BODY)

/** Records whether the final Response still has its fast-path state. */
function recordFast(into: Record<string, boolean>): MiddlewareHandler {
  return async (c, next) => {
    await next()
    into[c.req.path] = lightState(c.res) !== undefined
  }
}

function build() {
  const fast: Record<string, boolean> = {}
  const hono = new Hono()
  hono.use(recordFast(fast))
  hono.use('/cors/*', cors())
  hono.use('/cors-origin/*', cors({ origin: 'http://a.test' }))
  hono.use('/etag/*', etag())
  hono.use('/secure/*', secureHeaders())
  hono.use('/after/*', async (c, next) => {
    await next()
    c.header('x-after', '1')
  })
  for (const prefix of ['/cors', '/cors-origin', '/etag', '/secure', '/after']) {
    hono.get(`${prefix}/json`, (c) => c.json(BODY))
    hono.get(`${prefix}/text`, (c) => c.text('hello'))
  }
  hono.get('/platform', () => new OriginalResponse('platform body', { headers: { 'x-p': '1' } }))
  hono.get('/platform-bytes', () => new OriginalResponse(new Uint8Array([1, 2, 3])))
  const app = express()
  app.use(compression())
  app.use(fetchBridge(hono))
  return { app, fast }
}

function expectLength(res: request.Response, body: string | Buffer): void {
  expect(res.headers['transfer-encoding']).toBeUndefined()
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(body)))
}

describe('Content-Length after middleware changed the Response', () => {
  const { app, fast } = build()

  it.each([
    ['hono/cors', '/cors'],
    ['hono/cors with an origin (c.header after next)', '/cors-origin'],
    ['hono/etag (clone() after next)', '/etag'],
    ['hono/secure-headers', '/secure'],
    ['c.header() after next()', '/after'],
  ])('%s: exact Content-Length, on the fast path', async (_name, prefix) => {
    const json = await request(app).get(`${prefix}/json`).set('origin', 'http://a.test').set('accept-encoding', 'identity')
    expect(json.status).toBe(200)
    expect(json.headers['content-type']).toBe('application/json')
    expectLength(json, JSON_TEXT)
    expect(json.body).toEqual(BODY)
    expect(fast[`${prefix}/json`]).toBe(true)

    const text = await request(app).get(`${prefix}/text`).set('origin', 'http://a.test').set('accept-encoding', 'identity')
    expectLength(text, 'hello')
    expect(text.text).toBe('hello')
    expect(fast[`${prefix}/text`]).toBe(true)
  })

  it('keeps what the middleware added', async () => {
    const cors1 = await request(app).get('/cors-origin/json').set('origin', 'http://a.test')
    expect(cors1.headers['access-control-allow-origin']).toBe('http://a.test')
    expect(cors1.headers.vary).toMatch(/Origin/)
    const tagged = await request(app).get('/etag/text')
    expect(tagged.headers.etag).toMatch(/^"[0-9a-f]+"$/)
    const again = await request(app).get('/etag/text').set('if-none-match', tagged.headers.etag)
    expect(again.status).toBe(304)
    expect((await request(app).get('/secure/text')).headers['x-content-type-options']).toBe('nosniff')
    expect((await request(app).get('/after/text')).headers['x-after']).toBe('1')
  })

  it('a platform Response with a fixed body gets its exact Content-Length', async () => {
    const res = await request(app).get('/platform').set('accept-encoding', 'identity')
    expectLength(res, 'platform body')
    expect(res.text).toBe('platform body')
    expect(res.headers['x-p']).toBe('1')
    const bytes = await request(app).get('/platform-bytes').set('accept-encoding', 'identity').buffer(true)
    expect(bytes.headers['content-length']).toBe('3')
  })

  it("compression()'s 1 KB threshold applies behind cors", async () => {
    const { app: withCors } = (() => {
      const hono = new Hono()
      hono.use(cors())
      hono.get('/small', (c) => c.text('x'.repeat(100)))
      hono.get('/big', (c) => c.text('x'.repeat(4096)))
      const app = express()
      app.use(compression())
      app.use(fetchBridge(hono))
      return { app }
    })()
    const small = await request(withCors).get('/small').set('accept-encoding', 'gzip')
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.headers['content-length']).toBe('100')
    const big = await request(withCors).get('/big').set('accept-encoding', 'gzip')
    expect(big.headers['content-encoding']).toBe('gzip')
    expect(big.text).toBe('x'.repeat(4096))
  })
})
