import express from 'express'
import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'

// `fetchBridge(hono.fetch)` is the @hono/node-server habit. The app cannot be reached from its fetch
// function, so nothing could fall through: the bridge refuses it at start-up instead of silently
// answering every Express route with Hono's 404.

const hono = new Hono()
hono.get('/hono', (c) => c.text('hono'))

it('fetchBridge(hono.fetch) throws at start-up, saying what to pass instead', () => {
  expect(() => fetchBridge(hono.fetch)).toThrow(TypeError)
  expect(() => fetchBridge(hono.fetch)).toThrow(/pass the app itself \(fetchBridge\(app\)\).*fallthrough: false/)
})

it('so does front-door mode with a fetch function', () => {
  expect(() => fetchBridge(hono.fetch, { fallback: express() })).toThrow(/pass the app itself/)
})

it('with fallthrough: false it is accepted and every request gets the Hono answer', async () => {
  const app = express()
  app.use(fetchBridge(hono.fetch, { fallthrough: false }))
  app.get('/legacy', (_req, res) => res.send('legacy'))
  await request(app).get('/hono').expect(200, 'hono')
  await request(app).get('/legacy').expect(404, '404 Not Found')
})

it('the app itself falls through', async () => {
  const app = express()
  app.use(fetchBridge(hono))
  app.get('/legacy', (_req, res) => res.send('legacy'))
  await request(app).get('/legacy').expect(200, 'legacy')
})

it('a plain fetch function (even one named fetch) is still accepted and falls through on undefined', async () => {
  async function fetch(request: Request) {
    return new URL(request.url).pathname === '/mine' ? new Response('mine') : undefined
  }
  const app = express()
  app.use(fetchBridge(fetch))
  app.get('/legacy', (_req, res) => res.send('legacy'))
  await request(app).get('/mine').expect(200, 'mine')
  await request(app).get('/legacy').expect(200, 'legacy')
})
