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
