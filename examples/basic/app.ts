import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from 'express-fetch-bridge'

/** The Hono app: routes that have moved off Express. */
export function createHono() {
  const hono = new Hono()
  hono.get('/', (c) => c.text('Hello from Hono, served by Express'))
  hono.get('/api/time', (c) => c.json({ now: new Date().toISOString() }))
  hono.post('/api/echo', async (c) => c.json(await c.req.json()))
  return hono
}

/** An Express app hosting the Hono app; routes Hono does not have fall through to Express. */
export function createApp() {
  const app = express()
  app.use(fetchBridge(createHono()))
  app.get('/legacy', (_req, res) => {
    res.send('still Express')
  })
  return app
}
