import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, type FetchBridgeOptions } from '../../src/index.js'
import { countResponses, parseHead, raw } from '../helpers/transport.js'

// After answering without reading the upload, the bridge drains the rest of the body. Node answers
// 408 to a request still incomplete at `requestTimeout`, even on a connection whose response is done:
// the drain must end before that, so the client never gets an unsolicited 408 after its answer.

const hono = new Hono()
hono.post('/early', (c) => c.text('early answer', 401))

async function start(listener: http.RequestListener, serverOptions: http.ServerOptions) {
  const server = http.createServer({ connectionsCheckingInterval: 50, ...serverOptions }, listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

/** Sends the head and 1 KiB of a 1 MiB upload, then stalls; collects everything until the server closes. */
async function stalledUpload(port: number) {
  const started = Date.now()
  const result = await raw(
    port,
    (socket) => socket.write(`POST /early HTTP/1.1\r\nHost: t\r\nContent-Length: ${1024 * 1024}\r\n\r\n${'x'.repeat(1024)}`),
  )
  return { ...result, ms: Date.now() - started }
}

const listeners: Array<[string, (options?: FetchBridgeOptions) => http.RequestListener]> = [
  ['node:http', (options) => fetchBridge(hono, options)],
  ['Express', (options) => {
    const app = express()
    app.use(fetchBridge(hono, options))
    return app as unknown as http.RequestListener
  }],
]

describe.each(listeners)('%s', (_name, make) => {
  it('requestTimeout (1 s) shorter than the drain (5 s): one answer, then the connection closes, no 408', async () => {
    const s = await start(make(), { requestTimeout: 1000, headersTimeout: 500 })
    try {
      const { data, ended } = await stalledUpload(s.port)
      expect(ended).not.toBe('open')
      expect(parseHead(data).status).toBe(401)
      expect(countResponses(data)).toBe(1)
      expect(data.toString('latin1')).not.toContain('408')
    } finally {
      await s.close()
    }
  }, 15000)

  it('drain.maxMs bounds the drain: the connection closes after the answer, long before the 5 s default', async () => {
    const s = await start(make({ drain: { maxMs: 100 } }), {})
    try {
      const { data, ended, ms } = await stalledUpload(s.port)
      expect(ended).toBe('close')
      expect(parseHead(data).status).toBe(401)
      expect(countResponses(data)).toBe(1)
      expect(ms).toBeLessThan(4000)
    } finally {
      await s.close()
    }
  }, 15000)
})

it.each([{ maxMs: -1 }, { maxBytes: NaN }, { maxMs: Infinity }, { maxBytes: '1' }, null])('drain %j is rejected at start-up', (drain) => {
  expect(() => fetchBridge(hono, { drain } as unknown as FetchBridgeOptions)).toThrow(/drain/)
})
