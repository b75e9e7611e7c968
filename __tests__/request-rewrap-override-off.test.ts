import express from 'express'
import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../src/index.js'

// With overrideGlobalObjects: false the platform's Request and fetch stay in place, and they read
// internal slots a lazy Request does not have: the documented limit and its workaround.

const hono = new Hono()
hono.post('/rewrap', (c) => {
  try {
    new Request(c.req.raw)
    return c.text('constructed')
  } catch (err) {
    return c.text(`${(err as Error).name}`, 500)
  }
})
hono.post('/workaround', async (c) => {
  // The lazy Request as the init of a new one: method, headers and body (streamed) are copied.
  const copy = new Request(c.req.url, c.req.raw)
  return c.json({ method: copy.method, type: copy.headers.get('content-type'), body: await copy.text(), instance: c.req.raw instanceof Request })
})

const app = express()
app.use(fetchBridge(hono, { overrideGlobalObjects: false }))

describe('overrideGlobalObjects: false', () => {
  it('new Request(c.req.raw) throws a TypeError (the documented limit)', async () => {
    const res = await request(app).post('/rewrap').send('x')
    expect(res.text).toBe('TypeError')
  })

  it('new Request(c.req.url, c.req.raw) copies method, headers and body', async () => {
    const res = await request(app).post('/workaround').set('content-type', 'text/plain').send('copied body')
    expect(res.body).toEqual({ method: 'POST', type: 'text/plain', body: 'copied body', instance: true })
  })
})
