import express from 'express'
import { Hono } from 'hono'
import http from 'node:http'
import zlib from 'node:zlib'
import { fetchBridge } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

const TEXT = 'upstream body '.repeat(200)

/** An upstream that always answers gzip, and one with a coding fetch() does not decode. */
function upstream(): http.RequestListener {
  return (req, res) => {
    if (req.url === '/custom') {
      res.writeHead(200, { 'content-encoding': 'x-custom', 'content-length': '4' })
      res.end('abcd')
      return
    }
    const gz = zlib.gzipSync(TEXT)
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(gz.length) })
    res.end(gz)
  }
}

describe('returning a fetch() Response (a proxy route)', () => {
  let up: Running
  let server: Running
  beforeAll(async () => {
    up = await listen(upstream())
    const upPort = up.port
    const hono = new Hono()
    hono.get('/gzip', () => fetch(`http://127.0.0.1:${upPort}/gzip`))
    hono.get('/custom', () => fetch(`http://127.0.0.1:${upPort}/custom`))
    const app = express()
    app.use(fetchBridge(hono))
    server = await listen(app)
  })
  afterAll(async () => {
    await server.close()
    await up.close()
  })

  it('a body fetch() decoded goes out without the upstream Content-Encoding/Content-Length', async () => {
    const { res: { headers }, body } = await request(`${server.url}/gzip`)
    expect(headers['content-encoding']).toBeUndefined()
    expect(headers['content-length']).toBeUndefined()
    expect(headers['content-type']).toBe('text/plain')
    expect(body.toString()).toBe(TEXT)
  })

  it('a coding fetch() does not decode is passed on with the bytes as they came', async () => {
    const { res: { headers }, body } = await request(`${server.url}/custom`)
    expect(headers['content-encoding']).toBe('x-custom')
    expect(body.toString()).toBe('abcd')
  })
})
