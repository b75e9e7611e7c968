import type { IncomingMessage } from 'node:http'
import { LightHeaders } from './light-headers.js'

/**
 * Request headers built from `rawHeaders`, so repeated headers (two `Cookie` or `X-Forwarded-For`
 * lines) are kept as the client sent them. HTTP/2 pseudo-headers are skipped; a value the Headers
 * class rejects (Node accepts a few more bytes) is dropped rather than failing the request.
 */
export function requestHeaders(req: IncomingMessage): Headers {
  const raw = req.rawHeaders
  // The Map-backed Headers whether or not it is the global one: the same checks, a Map's cost.
  const headers = new LightHeaders()
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.charCodeAt(0) === 58 /* ':' */) continue
    try {
      headers.append(name, raw[i + 1])
    } catch {
      // invalid for the Fetch API: leave it out
    }
  }
  return headers
}

/** A flat `[name, value, name, value …]` list, as `res.writeHead` accepts it. */
export type FlatHeaders = string[]

/**
 * Whether two header names are the same name (ASCII case-insensitive). Names are mostly lower case
 * already and differ early: compared in place, without a toLowerCase() copy of either.
 */
export function sameName(a: string, b: string): boolean {
  if (a === b) return true
  const len = a.length
  if (b.length !== len) return false
  for (let i = 0; i < len; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 65 && x <= 90) x += 32
    if (y >= 65 && y <= 90) y += 32
    if (x !== y) return false
  }
  return true
}

/** Whether a header name is one of the body's framing headers (Content-Length, Transfer-Encoding). */
export function isFramingName(name: string): boolean {
  // By length first: every answer's every header passes through here, and few are 14 or 17 long.
  const n = name.length
  if (n === 14) return sameName(name, 'content-length')
  return n === 17 && sameName(name, 'transfer-encoding')
}

/** Index of a header name (case-insensitive) in a flat list, or -1. `lower` must be lower case. */
export function indexOfHeader(flat: FlatHeaders, lower: string): number {
  for (let i = 0; i < flat.length; i += 2) {
    if (sameName(flat[i], lower)) return i
  }
  return -1
}

/** Remove every occurrence of a header (case-insensitive) from a flat list. */
export function removeHeader(flat: FlatHeaders, lower: string): void {
  for (let i = flat.length - 2; i >= 0; i -= 2) {
    if (sameName(flat[i], lower)) flat.splice(i, 2)
  }
}
