import http2 from 'node:http2'
import connect from 'connect'
import express from 'express'
import { Hono } from 'hono'
import helmet from 'helmet'
import { expressMiddleware, fetchBridge, type HttpBindings } from '../../src/index.js'
import { h2Fetch, listenH2 } from '../helpers/h2.js'

// Middleware mode on HTTP/2. Express 4 and 5 cannot be an http2 server's handler: they replace the
// prototypes of req and res before any middleware runs, and node:http2's objects stop working (no
// middleware, this bridge included, ever runs to report it). The documented way: the Express app
// (bridge inside and all) becomes the front door's fallback. Connect does not replace prototypes: a
// bridge inside a Connect app serves HTTP/2 as it is.

type H2Handler = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void

function hono() {
  const app = new Hono()
  app.get('/api/hello', (c) => c.text(`hono ${c.req.header('host')}`))
  app.post('/api/echo', async (c) => c.text(`echo:${await c.req.text()}`))
  return app
}

it('an Express app with app.use(fetchBridge(hono)) inside serves HTTP/2 as the front door fallback', async () => {
  const app = express()
  app.use(fetchBridge(hono()))
  app.get('/legacy', (req, res) => res.send(`express ${req.hostname}`))
  // A front door with no routes of its own: everything goes to Express, whose bridge answers /api.
  const srv = await listenH2(http2.createServer(fetchBridge(new Hono(), { fallback: app }) as unknown as H2Handler), false)
  try {
    expect((await h2Fetch(srv.origin, { ':path': '/api/hello' })).text).toBe(`hono 127.0.0.1:${srv.port}`)
    expect((await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/api/echo' }, 'body')).text).toBe('echo:body')
    expect((await h2Fetch(srv.origin, { ':path': '/legacy' })).text).toBe('express 127.0.0.1')
  } finally {
    await srv.close()
  }
})

it('a bridge inside a Connect app serves HTTP/2 directly', async () => {
  const app = connect()
  app.use(fetchBridge(hono()) as unknown as connect.NextHandleFunction)
  app.use((req, res) => {
    res.end(`connect ${req.url}`)
  })
  const srv = await listenH2(http2.createServer(app as unknown as H2Handler), false)
  try {
    expect((await h2Fetch(srv.origin, { ':path': '/api/hello' })).text).toBe(`hono 127.0.0.1:${srv.port}`)
    expect((await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/api/echo' }, 'body')).text).toBe('echo:body')
    expect((await h2Fetch(srv.origin, { ':path': '/other' })).text).toBe('connect /other')
  } finally {
    await srv.close()
  }
})

it('expressMiddleware() inside Hono runs Express middleware on HTTP/2 requests', async () => {
  const app = new Hono<{ Bindings: HttpBindings }>()
  app.post('/parsed', expressMiddleware(express.json()), (c) => c.json({ body: c.env.incoming.body, host: c.req.header('host') }))
  app.get('/helmet', expressMiddleware(helmet()), (c) => c.text('secured'))
  const srv = await listenH2(http2.createServer(fetchBridge(app) as unknown as H2Handler), false)
  try {
    const parsed = await h2Fetch(srv.origin, { ':method': 'POST', ':path': '/parsed', 'content-type': 'application/json' }, '{"a":2}')
    expect(JSON.parse(parsed.text)).toEqual({ body: { a: 2 }, host: `127.0.0.1:${srv.port}` })
    const secured = await h2Fetch(srv.origin, { ':path': '/helmet' })
    expect(secured.text).toBe('secured')
    expect(secured.headers['x-content-type-options']).toBe('nosniff')
  } finally {
    await srv.close()
  }
})
