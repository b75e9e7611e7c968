// Headers earlier Express middleware set stay in Node's own header slot and the app's join them there
// (bridge's outgoing-headers.ts): the same lines reach the client and res.getHeaders(), and when Node
// refuses a header of the app's, the earlier ones are still there for the error answer.
import request from 'supertest'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'

function app(seen: Record<string, unknown>[]) {
  const hono = new Hono()
  hono.get('/ok', (c) => c.json({ ok: true }, 200, { 'x-app': 'yes', 'content-language': 'en' }))
  // Platform Headers take a control character that Node refuses in a header value.
  hono.get('/bad', () => new Response('x', { headers: { 'x-bad': 'a\u0001b' } }))
  // The first header replaces an earlier one, the second is refused.
  hono.get('/bad-after-replace', () => new Response('x', { headers: { 'content-language': 'en', 'x-bad': 'a\u0001b' } }))
  const e = express()
  e.use((_req, res, next) => {
    res.setHeader('X-Earlier', '1')
    res.setHeader('Content-Language', 'fr')
    res.on('finish', () => seen.push(res.getHeaders()))
    next()
  })
  e.use(fetchBridge(hono))
  e.use(((err, _req, res, _next) => {
    res.status(500).send(`failed: ${(err as Error).message.includes('x-bad') ? 'x-bad' : 'other'}`)
  }) as express.ErrorRequestHandler)
  return e
}

describe('headers set before the bridge, sent with the app\'s', () => {
  it('sends Express\'s and earlier middleware\'s headers with the app\'s; the app\'s value wins; getHeaders() sees them all', async () => {
    const seen: Record<string, unknown>[] = []
    const res = await request(app(seen)).get('/ok')
    expect(res.status).toBe(200)
    expect(res.headers['x-powered-by']).toBe('Express')
    expect(res.headers['x-earlier']).toBe('1')
    expect(res.headers['x-app']).toBe('yes')
    expect(res.headers['content-language']).toBe('en')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).toEqual({ ok: true })
    expect(seen[0]).toMatchObject({ 'x-powered-by': 'Express', 'x-earlier': '1', 'x-app': 'yes', 'content-language': 'en' })
  })

  it('keeps the earlier headers for the error answer when Node refuses one of the app\'s', async () => {
    const res = await request(app([])).get('/bad')
    expect(res.status).toBe(500)
    expect(res.text).toBe('failed: x-bad')
    expect(res.headers['x-earlier']).toBe('1')
    expect(res.headers['x-bad']).toBeUndefined()
  })

  it('keeps an earlier value the app was replacing when Node refuses a later header of the app\'s', async () => {
    const res = await request(app([])).get('/bad-after-replace')
    expect(res.status).toBe(500)
    expect(res.text).toBe('failed: x-bad')
    expect(res.headers['content-language']).toBe('fr')
    expect(res.headers['x-earlier']).toBe('1')
  })
})

// The merge path (Set-Cookie or Vary on both sides, or a writeHead wrapper such as compression's) replaces
// and merges earlier values: a header of the app's that Node refuses must still leave them all in place.
describe('a refused header on the merge path leaves every earlier value for the error answer', () => {
  function mergeApp(wrapWriteHead: boolean) {
    const hono = new Hono()
    const bad = 'a\u0001b'
    hono.get('/cookie', () => new Response('x', { headers: { 'set-cookie': 'a=1', 'x-bad': bad } }))
    hono.get('/vary', () => new Response('x', { headers: { vary: 'Accept-Encoding', 'x-bad': bad } }))
    hono.get('/custom', () => new Response('x', { headers: { 'x-custom': 'late', 'x-bad': bad } }))
    const e = express()
    e.use((_req, res, next) => {
      if (wrapWriteHead) {
        // What on-headers (compression, morgan, express-session) does: the bridge then takes the merge path.
        const writeHead = res.writeHead
        res.writeHead = function (this: typeof res, ...args: unknown[]) {
          return (writeHead as (...a: unknown[]) => typeof res).apply(this, args)
        } as typeof res.writeHead
      }
      res.cookie('early', 'e')
      res.setHeader('Vary', 'Origin')
      res.setHeader('X-Custom', 'early')
      next()
    })
    e.use(fetchBridge(hono))
    e.use(((_err, _req, res, _next) => {
      res.status(500).send('handled')
    }) as express.ErrorRequestHandler)
    return e
  }

  for (const wrapped of [false, true]) {
    for (const path of ['/cookie', '/vary', '/custom']) {
      it(`${path}${wrapped ? ' behind a writeHead wrapper' : ''}`, async () => {
        const res = await request(mergeApp(wrapped)).get(path)
        expect(res.status).toBe(500)
        expect(res.text).toBe('handled')
        expect(res.headers['x-bad']).toBeUndefined()
        expect(res.headers['set-cookie']).toEqual(['early=e; Path=/'])
        expect(res.headers['vary']).toBe('Origin')
        expect(res.headers['x-custom']).toBe('early')
      })
    }
  }
})
