import { getRequestListener } from '@hono/node-server'
import express from 'express'
import { Hono } from 'hono'
import { methodNotAllowed } from 'hono/method-not-allowed'
import { requestId } from 'hono/request-id'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// Middleware that looks at the not-found answer after next() sees the app's own notFound answer, as
// on Hono alone (Hono's tests, hono/method-not-allowed): the bridge falls through only when that
// answer reaches it as middleware left it, and sends what middleware turned it into otherwise.

function app(notFound: (c: any) => Response) {
  const hono = new Hono<{ Variables: { requestId: string } }>()
  hono.use(requestId({ generator: () => 'rid-1' }))
  hono.use(methodNotAllowed({ app: hono }))
  hono.get('/resource', (c) => c.text('resource'))
  hono.notFound(notFound)
  return hono
}

function behindExpress(hono: Hono<any>, overrideGlobalObjects = true) {
  const host = express().use(fetchBridge(hono, { overrideGlobalObjects }))
  host.use((req, res) => res.status(418).send(`express ${req.method}`))
  return host
}

describe.each([true, false])('overrideGlobalObjects: %s', (overrideGlobalObjects) => {
  it("a 410 of the app's notFound is left alone by hono/method-not-allowed: not a 405 (the request falls through)", async () => {
    const hono = app((c) => c.text('Missing', 410))
    expect((await hono.request('/resource', { method: 'POST' })).status).toBe(410)
    await request(behindExpress(hono, overrideGlobalObjects)).post('/resource').expect(418, 'express POST')
  })

  it('a 404 of it becomes the 405 Hono sends, with Allow, and no stale Content-Length of the not-found answer', async () => {
    const hono = app((c) => c.text('Missing', 404, { 'Content-Length': '7', 'x-not-found': '1' }))
    const alone = await hono.request('/resource', { method: 'POST' })
    const res = await request(behindExpress(hono, overrideGlobalObjects)).post('/resource')
    expect(res.status).toBe(405)
    expect(res.status).toBe(alone.status)
    expect(res.text).toBe(await alone.text())
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(res.headers['x-not-found']).toBe('1')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)))
    // The same on @hono/node-server's listener.
    const peer = await request(getRequestListener(hono.fetch)).post('/resource')
    expect([peer.status, peer.text, peer.headers.allow]).toEqual([res.status, res.text, res.headers.allow])
  })

  it("the notFound handler runs with the request's variables and headers, as on Hono alone (hono/request-id)", async () => {
    const hono = new Hono<{ Variables: { requestId: string } }>()
    hono.use(requestId({ generator: () => 'rid-1' }))
    hono.use(async (c, next) => {
      c.header('x-before', '1')
      await next()
      if (c.res.status === 404) c.res = c.json({ wrapped: await c.res.json() }, 400)
    })
    hono.get('/resource', (c) => c.text('resource'))
    hono.notFound((c) => c.json({ error: 'missing', id: c.get('requestId') }, 404))
    const alone = await hono.request('/resource', { method: 'DELETE' })
    const res = await request(behindExpress(hono, overrideGlobalObjects)).delete('/resource')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ wrapped: { error: 'missing', id: 'rid-1' } })
    expect(res.body).toEqual(await alone.json())
    expect(res.headers['x-request-id']).toBe('rid-1')
    expect(res.headers['x-before']).toBe(alone.headers.get('x-before'))
  })
})
