import express from 'express'
import request from 'supertest'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { methodOverride } from 'hono/method-override'
import { fetchBridge, OriginalResponse } from '../../src/index.js'
import { listen, request as rawRequest } from '../helpers/transport.js'

// With overrideGlobalObjects: false the platform's Request, Response and fetch stay in place, and
// the app gets a platform Request: everything the platform does with one works, Hono's own
// middleware that re-wraps the request (bodyLimit on chunked bodies, methodOverride) included.

const PlatformRequest = globalThis.Request

const hono = new Hono()
hono.post('/rewrap', async (c) => {
  const copy = new Request(c.req.raw, { headers: { 'x-copied': '1' } })
  return c.json({ platform: c.req.raw.constructor === PlatformRequest, body: await copy.text(), copied: copy.headers.get('x-copied') })
})
hono.post('/clone', async (c) => {
  const clone = c.req.raw.clone()
  return c.json({ clone: await clone.text(), original: await c.req.text() })
})
hono.post('/workaround', async (c) => {
  const copy = new Request(c.req.url, c.req.raw)
  return c.json({ method: copy.method, type: copy.headers.get('content-type'), body: await copy.text(), instance: c.req.raw instanceof Request })
})
hono.post('/limited', bodyLimit({ maxSize: 16, onError: (c) => c.text('too large', 413) }), async (c) => c.text(`ok ${(await c.req.text()).length}`))
hono.use('/items/*', methodOverride({ app: hono, header: 'x-http-method-override' }))
hono.delete('/items/:id', (c) => c.text(`deleted ${c.req.param('id')}`))

const app = express()
app.use(fetchBridge(hono, { overrideGlobalObjects: false }))

describe('overrideGlobalObjects: false', () => {
  it('leaves the globals as they were', () => {
    expect(globalThis.Request).toBe(PlatformRequest)
    expect(globalThis.Response).toBe(OriginalResponse)
  })

  it('new Request(c.req.raw, init) works: the app got a platform Request', async () => {
    const res = await request(app).post('/rewrap').send('x')
    expect(res.body).toEqual({ platform: true, body: 'x', copied: '1' })
  })

  it('c.req.raw.clone() works, both copies read the body', async () => {
    const res = await request(app).post('/clone').set('content-type', 'text/plain').send('twice')
    expect(res.body).toEqual({ clone: 'twice', original: 'twice' })
  })

  it('new Request(c.req.url, c.req.raw) copies method, headers and body', async () => {
    const res = await request(app).post('/workaround').set('content-type', 'text/plain').send('copied body')
    expect(res.body).toEqual({ method: 'POST', type: 'text/plain', body: 'copied body', instance: true })
  })

  it("hono/body-limit counts a chunked body (no Content-Length) and answers 413 past its limit", async () => {
    const server = await listen(app)
    try {
      const small = await rawRequest(`${server.url}/limited`, { method: 'POST' }, ['12345', '678'])
      expect([small.res.statusCode, small.body.toString()]).toEqual([200, 'ok 8'])
      const large = await rawRequest(`${server.url}/limited`, { method: 'POST' }, ['0123456789', '0123456789'])
      expect([large.res.statusCode, large.body.toString()]).toEqual([413, 'too large'])
    } finally {
      await server.close()
    }
  })

  it("hono/method-override re-dispatches on the header's method", async () => {
    const res = await request(app).post('/items/3').set('x-http-method-override', 'DELETE')
    expect([res.status, res.text]).toEqual([200, 'deleted 3'])
  })
})
