import express from 'express'
import { Hono } from 'hono'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { fetchBridge } from '../src/index.js'

const TEXT = 'upstream body '.repeat(200)

/** An upstream that always answers gzip, and one with a coding fetch() does not decode. */
function upstream(): http.Server {
  return http.createServer((req, res) => {
    if (req.url === '/custom') {
      res.writeHead(200, { 'content-encoding': 'x-custom', 'content-length': '4' })
      res.end('abcd')
      return
    }
    const gz = zlib.gzipSync(TEXT)
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(gz.length) })
    res.end(gz)
  })
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** A raw GET that does not decode anything, so the test sees exactly what the bridge sent. */
function rawGet(port: number, path: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    }).on('error', reject)
  })
}

describe('returning a fetch() Response (a proxy route)', () => {
  const up = upstream()
  let server: http.Server
  let port: number
  beforeAll(async () => {
    const upPort = await listen(up)
    const hono = new Hono()
    hono.get('/gzip', () => fetch(`http://127.0.0.1:${upPort}/gzip`))
    hono.get('/custom', () => fetch(`http://127.0.0.1:${upPort}/custom`))
    const app = express()
    app.use(fetchBridge(hono))
    server = http.createServer(app)
    port = await listen(server)
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await new Promise((resolve) => up.close(resolve))
  })

  test('a body fetch() decoded goes out without the upstream Content-Encoding/Content-Length', async () => {
    const { headers, body } = await rawGet(port, '/gzip')
    expect(headers['content-encoding']).toBeUndefined()
    expect(headers['content-length']).toBeUndefined()
    expect(headers['content-type']).toBe('text/plain')
    expect(body.toString()).toBe(TEXT)
  })

  test('a coding fetch() does not decode is passed on with the bytes as they came', async () => {
    const { headers, body } = await rawGet(port, '/custom')
    expect(headers['content-encoding']).toBe('x-custom')
    expect(body.toString()).toBe('abcd')
  })
})
