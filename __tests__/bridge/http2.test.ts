import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http2 from 'node:http2'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'

// HTTP/2 is not supported: behind http2.createSecureServer({ allowHTTP1: true }, bridge) an HTTP/2
// request is refused with 505 and a one-time warning (never served with its body read as empty);
// HTTP/1.1 on the same server is served as usual.

const hono = new Hono()
hono.post('/echo', async (c) => c.text(`echo:${await c.req.text()}`))

let server: http2.Http2SecureServer
let port: number
let emitWarning: jest.SpyInstance

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' })
  const key = fs.readFileSync(path.join(dir, 'key.pem'))
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'))
  fs.rmSync(dir, { recursive: true })
  const legacy = express()
  legacy.get('/legacy', (_req, res) => res.send('legacy'))
  server = http2.createSecureServer({ key, cert, allowHTTP1: true }, fetchBridge(hono, { fallback: legacy }) as any)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
  emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => {})
})
afterAll(async () => {
  emitWarning.mockRestore()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function h2Post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false })
    client.on('error', reject)
    // No content-length: the body is only framed by HTTP/2 DATA frames.
    const req = client.request({ ':method': 'POST', ':path': '/echo' })
    let status = 0
    let text = ''
    req.on('response', (headers) => (status = Number(headers[':status'])))
    req.setEncoding('utf8')
    req.on('data', (c) => (text += c))
    req.on('end', () => {
      client.close()
      resolve({ status, text })
    })
    req.on('error', reject)
    req.end(body)
  })
}

it('an HTTP/2 request is refused with 505 and a clear message, warned about once', async () => {
  for (let i = 0; i < 2; i++) {
    const res = await h2Post('hello')
    expect(res.status).toBe(505)
    expect(res.text).toMatch(/HTTP\/2 is not supported.*HTTP\/1\.1/)
  }
  const ours = emitWarning.mock.calls.filter((args) => (args[1] as { code?: string } | undefined)?.code === 'FETCH_BRIDGE_HTTP2')
  expect(ours).toHaveLength(1)
  expect(String(ours[0][0])).toMatch(/does not serve HTTP\/2/)
})

it('HTTP/1.1 on the same server is served, chunked body included', async () => {
  const text = await new Promise<string>((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', rejectUnauthorized: false, agent: false }, (res) => {
      let data = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (data += c))
      res.on('end', () => resolve(`${res.statusCode} ${data}`))
    })
    req.on('error', reject)
    req.write('hel')
    req.end('lo')
  })
  expect(text).toBe('200 echo:hello')
})
