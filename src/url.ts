import type { IncomingMessage } from 'node:http'
import { BadRequestError } from './errors.js'

/**
 * The request URL: origin (Host, trust proxy, fixed `origin`) and target (path and query, mount
 * path strip/keep), validated so `new Request(url)` would accept it, built without `new URL()` on
 * the usual path.
 */

// Character classes as lookup tables: a charCode loop costs less per request than a regex.
function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128)
  for (let c = 48; c <= 57; c++) table[c] = 1
  for (let c = 65; c <= 90; c++) table[c] = table[c + 32] = 1
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1
  return table
}
// Characters that `new URL()` keeps as they are in a path or query.
const TARGET_CHARS = charTable("-._~!$&'()*+,;=:@/?%")
// A Host reg-name or IPv4 address.
const REG_NAME_CHARS = charTable("-._~!$&'()*+,;=%")

/**
 * A target made only of characters `new URL()` keeps, without dot segments (`/.`, `%2e`), so
 * `request.url` can be origin + target and still equal what a real Request would report.
 */
function isPlainTarget(target: string): boolean {
  if (target.charCodeAt(0) !== 47 /* '/' */) return false
  for (let i = 1; i < target.length; i++) {
    const c = target.charCodeAt(i)
    if (c > 127 || TARGET_CHARS[c] === 0) return false
    if (c === 46 /* '.' */ && target.charCodeAt(i - 1) === 47) return false
    if (c === 37 /* '%' */ && target.charCodeAt(i + 1) === 50 /* '2' */ && (target.charCodeAt(i + 2) | 32) === 101 /* 'e' */) {
      return false
    }
  }
  return true
}

/** A Host header we can put in a URL unchanged: reg-name or IPv4, or an IPv6 literal, then `:port` (≤ 65535). */
function isValidHost(host: string): boolean {
  const n = host.length
  let i = 0
  // Set for what the character check cannot judge (IPv6 literal, %-escape, a numeric last label that
  // is not a plain dotted quad): the URL parser decides, off the usual path.
  let ask = false
  if (host.charCodeAt(0) === 91 /* '[' */) {
    i = 1
    for (; i < n; i++) {
      const c = host.charCodeAt(i)
      if (c === 93 /* ']' */) break
      // hex digits, ':' and '.'
      if (!((c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) || c === 46)) return false
    }
    if (i === 1 || i === n) return false
    i++
    ask = true
  } else {
    let label = 0
    for (; i < n; i++) {
      const c = host.charCodeAt(i)
      if (c > 127 || REG_NAME_CHARS[c] === 0) break
      if (c === 37 /* '%' */) ask = true
      else if (c === 46 /* '.' */ && i + 1 < n && host.charCodeAt(i + 1) !== 58) label = i + 1
    }
    if (i === 0) return false
    const first = host.charCodeAt(label)
    if (first >= 48 && first <= 57 && !isDottedQuad(host, i)) ask = true
  }
  if (i !== n) {
    if (host.charCodeAt(i) !== 58 /* ':' */ || n - i - 1 > 5) return false
    let port = 0
    for (let j = i + 1; j < n; j++) {
      const c = host.charCodeAt(j)
      if (c < 48 || c > 57) return false
      port = port * 10 + c - 48
    }
    if (port > 65535) return false
  }
  return !ask || parsesAsHost(host)
}

/** `a.b.c.d`, each part 0–255 in decimal, ending at `end`. */
function isDottedQuad(host: string, end: number): boolean {
  let parts = 1
  let value = 0
  let digits = 0
  for (let i = 0; i < end; i++) {
    const c = host.charCodeAt(i)
    if (c === 46 /* '.' */) {
      if (digits === 0 || ++parts > 4) return false
      value = digits = 0
    } else if (c >= 48 && c <= 57 && ++digits <= 3) {
      value = value * 10 + c - 48
      if (value > 255) return false
    } else {
      return false
    }
  }
  return parts === 4 && digits !== 0
}

function parsesAsHost(host: string): boolean {
  try {
    new URL(`http://${host}/`)
    return true
  } catch {
    return false
  }
}

/** What Express adds to a request that the URL depends on. */
export interface ExpressLikeRequest extends IncomingMessage {
  app?: { settings?: Record<string, unknown> }
  baseUrl?: string
  originalUrl?: string
}

/** The origin (`scheme://host`) of a request, following Express's trust-proxy rules when present. */
export function requestOrigin(req: ExpressLikeRequest): string {
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean }
  let proto = socket && socket.encrypted ? 'https' : 'http'
  let host = req.headers.host
  const settings = req.app?.settings
  if (settings !== undefined) {
    const trust = settings['trust proxy fn'] as ((addr: string | undefined, i: number) => boolean) | undefined
    if (trust !== undefined && trust(socket?.remoteAddress, 0)) {
      const fproto = req.headers['x-forwarded-proto']
      if (typeof fproto === 'string' && fproto !== '') {
        const comma = fproto.indexOf(',')
        proto = (comma === -1 ? fproto : fproto.slice(0, comma)).trim().toLowerCase()
        if (proto !== 'http' && proto !== 'https') throw new BadRequestError('Invalid X-Forwarded-Proto')
      }
      const fhost = req.headers['x-forwarded-host']
      if (typeof fhost === 'string' && fhost !== '') {
        const comma = fhost.indexOf(',')
        host = (comma === -1 ? fhost : fhost.slice(0, comma)).trim()
      }
    }
  }
  if (host === undefined || host === '') {
    // HTTP/1.0 clients may omit Host: use the address the request arrived on.
    const address = socket?.localAddress ?? 'localhost'
    const port = socket?.localPort
    host = (address.includes(':') ? `[${address}]` : address) + (port ? `:${port}` : '')
  } else if (!isValidHost(host)) {
    throw new BadRequestError('Invalid Host header')
  }
  return `${proto}://${host}`
}

/**
 * `baseUrl + url`, except that Express turns `/api?x=1` into url `/?x=1` under `/api`: the client sent
 * no slash after the mount path, so none is added back (a Hono route `/api` must still match).
 */
function keptTarget(baseUrl: string, url: string, originalUrl: string | undefined): string {
  const c = url.charCodeAt(1)
  if (url.charCodeAt(0) === 47 && (url.length === 1 || c === 63 /* '?' */) && originalUrl !== undefined) {
    const next = originalUrl.charCodeAt(baseUrl.length)
    if ((next !== 47 /* '/' */) && originalUrl.startsWith(baseUrl)) return baseUrl + url.slice(1)
  }
  return baseUrl + url
}

/** The full request URL: origin + path and query, byte-exact where a real Request would keep them. */
export function requestUrl(req: ExpressLikeRequest, origin: string, keepMountPath: boolean): string {
  let target = req.url ?? '/'
  if (keepMountPath && req.baseUrl) target = keptTarget(req.baseUrl, target, req.originalUrl)
  if (isPlainTarget(target)) return origin + target
  let url: URL
  try {
    url = target.charCodeAt(0) === 47 /* '/' */ ? new URL(origin + target) : new URL(target)
  } catch {
    throw new BadRequestError('Invalid request target')
  }
  // An absolute-form target keeps our origin: the Host/proxy rules decide it, not the client.
  return origin + url.pathname + url.search
}

