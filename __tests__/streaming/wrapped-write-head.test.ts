import express from 'express'
import { Hono } from 'hono'
import { createRequire } from 'node:module'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// on-headers ≤ 1.0.2 (in morgan 1.10.0, compression < 1.8.1, express-session < 1.18.2 — common in
// existing lock files) wraps res.writeHead and reads an array of headers as [name, value] pairs.
const onHeaders = createRequire(__filename)('on-headers-legacy') as (res: unknown, listener: () => void) => void

function app(): express.Express {
  const hono = new Hono()
  hono.get('/text', (c) => c.text('hello'))
  hono.get('/cookies', (c) => {
    c.header('set-cookie', 'a=1', { append: true })
    c.header('set-cookie', 'b=2', { append: true })
    return c.json({ ok: true }, 201)
  })
  hono.get('/stream', () => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('streamed')); c.close() } })))
  const app = express()
  let heard = 0
  app.use((_req, res, next) => {
    onHeaders(res, () => {
      heard++
      res.setHeader('x-heard', String(heard > 0))
    })
    next()
  })
  app.use(fetchBridge(hono))
  return app
}

describe('a writeHead wrapped by an old on-headers (morgan 1.10, compression < 1.8.1)', () => {
  it('fixed body: status, headers and body intact, the listener ran before the headers went out', async () => {
    const res = await request(app()).get('/text')
    expect(res.status).toBe(200)
    expect(res.text).toBe('hello')
    expect(res.headers['content-type']).toBe('text/plain;charset=UTF-8')
    expect(res.headers['content-length']).toBe('5')
    expect(res.headers['x-heard']).toBe('true')
    expect(Object.keys(res.headers)).not.toContain('c')
  })

  it('repeated Set-Cookie and a status from the app', async () => {
    const res = await request(app()).get('/cookies')
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ ok: true })
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2'])
  })

  it('stream body', async () => {
    const res = await request(app()).get('/stream')
    expect(res.status).toBe(200)
    expect(res.text).toBe('streamed')
    expect(res.headers['x-heard']).toBe('true')
  })
})
