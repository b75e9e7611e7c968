import http2 from 'node:http2'
import fc from 'fast-check'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { connect, h2Request, listenH2, type H2Server } from '../helpers/h2.js'

// The rule (RFC 9113 §8.2.2), proved against real dispatch over h2c: whatever fields an app or Express
// middleware sets, an HTTP/2 answer carries exactly those that are not connection-specific (Connection,
// the names it lists, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, TE but `trailers`),
// and never fails because of them.

const SPECIFIC = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te']
const OTHER = ['x-a', 'x-b', 'x-hop', 'cache-control', 'x-trace']

const field = fc.record({
  name: fc.constantFrom(...SPECIFIC, ...OTHER).chain((n) => fc.constantFrom(n, n.toUpperCase())),
  value: fc.constantFrom('1', 'close', 'chunked', 'trailers', 'x-hop', 'x-hop, x-trace', 'timeout=5'),
})

/** What the client must receive: the fields that are allowed on HTTP/2, last value wins. */
function expected(fields: { name: string; value: string }[]): Record<string, string> {
  const named = new Set<string>()
  for (const f of fields) {
    if (f.name.toLowerCase() === 'connection') for (const t of f.value.split(',')) named.add(t.trim().toLowerCase())
  }
  const out: Record<string, string> = {}
  for (const f of fields) {
    const lower = f.name.toLowerCase()
    if (named.has(lower) || ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'].includes(lower)) continue
    if (lower === 'te' && f.value !== 'trailers') continue
    out[lower] = f.value
  }
  return out
}

let srv: H2Server
let session: http2.ClientHttp2Session
let current: { name: string; value: string }[] = []

beforeAll(async () => {
  const hono = new Hono()
  hono.get('/hono', () => {
    const headers = new Headers()
    for (const f of current) headers.set(f.name, f.value)
    return new Response('hono', { headers })
  })
  const app = express()
  app.get('/express', (_req, res) => {
    for (const f of current) res.setHeader(f.name, f.value)
    res.send('express')
  })
  srv = await listenH2(http2.createServer(fetchBridge(hono, { fallback: app }) as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void), false)
  session = await connect(srv.origin)
})
afterAll(async () => {
  session.close()
  await srv.close()
})

function received(headers: http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of [...SPECIFIC, ...OTHER]) if (headers[name] !== undefined) out[name] = String(headers[name])
  return out
}

it.each(['/hono', '/express'])('%s: exactly the fields HTTP/2 allows reach the client', async (path) => {
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(field, { selector: (f) => f.name.toLowerCase(), maxLength: 6 }), async (fields) => {
      current = fields
      const res = await h2Request(session, { ':path': path })
      expect(res.status).toBe(200)
      expect(received(res.headers)).toEqual(expected(fields))
    }),
    { numRuns: 60 },
  )
})
