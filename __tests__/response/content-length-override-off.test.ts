import compression from 'compression'
import express from 'express'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

/** Its own file: with the default override, an earlier test in the same file would install LightResponse. */

const BODY = { hello: 'world', list: [1, 2, 3] }
const JSON_TEXT = JSON.stringify(BODY)

function expectLength(res: request.Response, body: string): void {
  expect(res.headers['transfer-encoding']).toBeUndefined()
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(body)))
}

describe('Content-Length with overrideGlobalObjects: false', () => {
  const hono = new Hono()
  hono.use('/cors/*', cors())
  hono.get('/json', (c) => c.json(BODY))
  hono.get('/cors/json', (c) => c.json(BODY))
  const app = express()
  app.use(compression())
  app.use(fetchBridge(hono, { overrideGlobalObjects: false }))

  it('c.json() (a platform Response) gets its exact Content-Length', async () => {
    expect(new Response('x')).toBeInstanceOf(Response)
    const res = await request(app).get('/json').set('accept-encoding', 'identity')
    expectLength(res, JSON_TEXT)
    expect(res.body).toEqual(BODY)
  })

  it('behind cors too, and below the compression threshold nothing is compressed', async () => {
    const res = await request(app).get('/cors/json').set('accept-encoding', 'gzip')
    expect(res.headers['content-encoding']).toBeUndefined()
    expectLength(res, JSON_TEXT)
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })
})

describe('a large fixed body of a platform Response still gets its exact Content-Length', () => {
  // One chunk past the read-ahead limit (1 MiB) and then its end: a fixed body, not a stream.
  const SIZE = 10 * 1024 * 1024
  const text = 'x'.repeat(SIZE)
  const hono = new Hono()
  hono.get('/text', (c) => c.text(text))
  hono.get('/bytes', () => new Response(new Uint8Array(SIZE).fill(0x61)))
  const app = express().use(fetchBridge(hono, { overrideGlobalObjects: false }))

  it.each(['/text', '/bytes'])('%s (10 MiB)', async (path) => {
    const res = await request(app).get(path).buffer(true).parse((r, done) => {
      let n = 0
      r.on('data', (c: Buffer) => (n += c.length))
      r.on('end', () => done(null, n))
    })
    expect(res.headers['transfer-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe(String(SIZE))
    expect(res.body).toBe(SIZE)
  })
})
