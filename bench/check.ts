/** Before timing: every mode must answer every route with the same bytes and the headers that matter. */
import { createHash } from 'node:crypto'
import { bodyBytes, type RouteInfo } from './modes.js'
import type { RunningServer } from './server-process.js'
import { CHUNK, DOWNLOAD_CHUNK, DOWNLOAD_FIXED, ECHO_BODY, JSON_BODY, MW_HEADERS, STREAM_CHUNKS } from './workload.js'

const STREAM_TEXT = CHUNK.toString('latin1').repeat(STREAM_CHUNKS)
const JSON_TEXT = JSON.stringify(JSON_BODY)
const norm = (ct: string | null) => (ct === null ? null : ct.toLowerCase().replace(/\s+/g, ''))

interface Expect {
  body: string
  contentType: string | null
  headers?: Record<string, string>
}
const EXPECT: Record<string, Expect> = {
  '/': { body: 'foo', contentType: 'text/plain;charset=utf-8', headers: { 'x-foo': 'bar' } },
  '/uint8array': { body: 'foo', contentType: null },
  '/blob': { body: 'foo', contentType: null },
  '/json': { body: JSON_TEXT, contentType: 'application/json' },
  '/echo': { body: JSON.stringify(JSON.parse(ECHO_BODY)), contentType: 'application/json' },
  '/stream': { body: STREAM_TEXT, contentType: 'text/plain;charset=utf-8' },
  '/mw': { body: JSON_TEXT, contentType: 'application/json', headers: MW_HEADERS },
  '/etag': {
    body: JSON_TEXT,
    contentType: 'application/json',
    headers: { etag: `"${createHash('sha1').update(JSON_TEXT).digest('hex')}"`, 'content-length': String(Buffer.byteLength(JSON_TEXT)) },
  },
}

/** @hono/node-server labels untyped byte bodies text/plain (the Fetch spec sets no type). */
const PEER_TYPES: Record<string, string> = { '/uint8array': 'text/plain;charset=utf-8', '/blob': 'text/plain;charset=utf-8' }
const KNOWN_CONTENT_TYPE: Record<string, Record<string, string>> = {
  'hono-express': PEER_TYPES,
  'hono-serve': PEER_TYPES,
}

/** A bulk-body route: the upload's byte count in the answer, or the download's every byte. */
async function checkBulk(s: RunningServer, route: RouteInfo): Promise<void> {
  const fail = (what: string) => {
    throw new Error(`correctness check failed: ${s.mode} ${route.method} ${route.path}: ${what}`)
  }
  const bytes = bodyBytes(route)
  if (route.upload !== undefined) {
    const body = Buffer.alloc(bytes, 'u')
    const res = await fetch(`http://127.0.0.1:${s.port}${route.path}`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } })
    const text = await res.text()
    if (res.status !== 200) fail(`status ${res.status}`)
    if (text !== JSON.stringify({ bytes })) fail(`answered ${text.slice(0, 80)}, expected ${bytes} bytes counted`)
    return
  }
  const res = await fetch(`http://127.0.0.1:${s.port}${route.path}`)
  const got = Buffer.from(await res.arrayBuffer())
  if (res.status !== 200) fail(`status ${res.status}`)
  if (got.byteLength !== bytes) fail(`${got.byteLength} bytes, expected ${bytes}`)
  const fixed = route.path === '/download/fixed'
  const byte = fixed ? DOWNLOAD_FIXED[0] : DOWNLOAD_CHUNK[0]
  if (got.some((b) => b !== byte)) fail('unexpected bytes')
  if (fixed && res.headers.get('content-length') !== String(bytes)) fail(`content-length ${res.headers.get('content-length')}`)
}

export async function check(s: RunningServer, route: RouteInfo, notes: Set<string>): Promise<void> {
  if (bodyBytes(route) > 0) return checkBulk(s, route)
  const init: RequestInit =
    route.method === 'POST' ? { method: 'POST', body: ECHO_BODY, headers: { 'content-type': 'application/json' } } : {}
  const res = await fetch(`http://127.0.0.1:${s.port}${route.path}`, init)
  const text = await res.text()
  const fail = (what: string) => {
    throw new Error(`correctness check failed: ${s.mode} ${route.method} ${route.path}: ${what}`)
  }
  if (res.status !== 200) fail(`status ${res.status}`)
  const exp = EXPECT[route.path]
  if (text !== exp.body) fail(`unexpected body ${JSON.stringify(text.slice(0, 80))} (${text.length} chars)`)
  const known = KNOWN_CONTENT_TYPE[s.mode]?.[route.path]
  const want = known ?? exp.contentType
  if (norm(res.headers.get('content-type')) !== want) fail(`content-type ${res.headers.get('content-type')}, expected ${want}`)
  if (known) notes.add(`${s.mode} ${route.path}: content-type ${known} (the peer's own default).`)
  for (const [k, v] of Object.entries(exp.headers ?? {})) if (res.headers.get(k) !== v) fail(`header ${k}: ${res.headers.get(k)}`)
  if (res.headers.get('content-length') === null && route.path !== '/stream') {
    notes.add(`${s.mode} ${route.path}: sent without Content-Length (chunked).`)
  }
}
