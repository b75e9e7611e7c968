import express from 'express'
import { Hono } from 'hono'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { fetchBridge } from '../../src/index.js'

/** Send `OPTIONS * HTTP/1.1` (no client library sends an asterisk-form target) and return the reply. */
function optionsStar(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('OPTIONS * HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n'))
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => (data += chunk))
    socket.on('end', () => resolve(data))
    socket.on('error', reject)
  })
}

async function withServer(listener: http.RequestListener, run: (port: number) => Promise<void>): Promise<void> {
  const server = http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    await run((server.address() as AddressInfo).port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const hono = new Hono()
hono.get('/', (c) => c.text('hono'))

describe('OPTIONS * (asterisk-form target)', () => {
  it('falls through to the Express app behind the bridge', async () => {
    const app = express()
    app.use(fetchBridge(hono))
    app.use((req, res) => {
      res.status(200).send(`express saw ${req.method} ${req.url}`)
    })
    await withServer(app as unknown as http.RequestListener, async (port) => {
      const reply = await optionsStar(port)
      expect(reply).toMatch(/^HTTP\/1\.1 200 /)
      expect(reply).toContain('express saw OPTIONS *')
    })
  })

  it('front door: handed to the fallback untouched', async () => {
    const fallback = (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(204, { allow: 'GET, OPTIONS', 'x-url': req.url! })
      res.end()
    }
    await withServer(fetchBridge(hono, { fallback }), async (port) => {
      const reply = await optionsStar(port)
      expect(reply).toMatch(/^HTTP\/1\.1 204 /)
      expect(reply.toLowerCase()).toContain('x-url: *')
    })
  })

  it('with fallthrough: false the bridge answers 400 (the app cannot route it)', async () => {
    await withServer(fetchBridge(hono, { fallthrough: false }), async (port) => {
      expect(await optionsStar(port)).toMatch(/^HTTP\/1\.1 400 /)
    })
  })
})
