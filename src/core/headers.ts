import type { IncomingMessage } from 'node:http'
import type { HeadersInit } from './fetch-types.js'
import { flattenLight } from './light-headers.js'

/**
 * Request headers built from `rawHeaders`, so repeated headers (two `Cookie` or `X-Forwarded-For`
 * lines) are kept as the client sent them. HTTP/2 pseudo-headers are skipped; a value the Headers
 * class rejects (Node accepts a few more bytes) is dropped rather than failing the request.
 */
export function requestHeaders(req: IncomingMessage): Headers {
  const raw = req.rawHeaders
  const headers = new Headers()
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

/** Flatten a HeadersInit (plain object, pair list or Headers) without building a Headers object. */
export function flattenInit(init: HeadersInit | undefined, out: FlatHeaders): void {
  if (init === undefined || init === null) return
  if (init instanceof Headers) {
    flattenHeaders(init, out)
  } else if (Array.isArray(init)) {
    for (let i = 0; i < init.length; i++) {
      const pair = init[i]
      if (pair.length !== 2) throw new TypeError('Headers init: each pair must have exactly two items')
      out.push(String(pair[0]), String(pair[1]))
    }
  } else if (typeof (init as any)[Symbol.iterator] === 'function') {
    for (const pair of init as unknown as Iterable<[string, string]>) out.push(String(pair[0]), String(pair[1]))
  } else {
    for (const name in init) {
      if (Object.prototype.hasOwnProperty.call(init, name)) {
        out.push(name, String((init as Record<string, string>)[name]))
      }
    }
  }
}

/**
 * Flatten a Headers object; Set-Cookie values stay separate lines (iteration keeps them apart). Another
 * implementation's Headers that only has forEach() gives its Set-Cookie lines through getSetCookie().
 */
export function flattenHeaders(headers: Headers, out: FlatHeaders): void {
  if (flattenLight(headers, out)) return
  if (typeof headers[Symbol.iterator] === 'function') {
    for (const [name, value] of headers) out.push(name, value)
    return
  }
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : undefined
  headers.forEach((value, name) => {
    if (cookies === undefined || name.toLowerCase() !== 'set-cookie') out.push(name, value)
  })
  if (cookies !== undefined) for (const cookie of cookies) out.push('set-cookie', cookie)
}

/** Index of a header name (case-insensitive) in a flat list, or -1. `lower` must be lower case. */
export function indexOfHeader(flat: FlatHeaders, lower: string): number {
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    if (name.length === lower.length && name.toLowerCase() === lower) return i
  }
  return -1
}

/** Remove every occurrence of a header (case-insensitive) from a flat list. */
export function removeHeader(flat: FlatHeaders, lower: string): void {
  for (let i = flat.length - 2; i >= 0; i -= 2) {
    const name = flat[i]
    if (name.length === lower.length && name.toLowerCase() === lower) flat.splice(i, 2)
  }
}
