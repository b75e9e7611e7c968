/**
 * The request URL: origin (Host, trust proxy, fixed `origin`) and target (path and query, mount
 * path strip/keep), validated so `new Request(url)` would accept it, built without `new URL()` on
 * the usual path.
 */

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { BadRequestError } from '../core/errors.js'
import { routedTarget, type TargetRouting } from '../core/routed-target.js'

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
 * Characters no encoder escapes (RFC 3986 unreserved, plus the `!'()*` that `encodeURIComponent` and the
 * URL parser leave alone) and that Hono's path decoding (`decodeURI`) resolves: escaped, they are the
 * same path to Hono and another path to Express, which routes on the raw target.
 */
const NEVER_ESCAPED = charTable("-._~!'()*")

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  c |= 32
  return c >= 97 && c <= 102 ? c - 87 : -1
}

/** The character `%XY` at `i` stands for, or -1 if it is not an escape. */
function escapedAt(target: string, i: number): number {
  const hi = hexValue(target.charCodeAt(i + 1))
  const lo = hi === -1 ? -1 : hexValue(target.charCodeAt(i + 2))
  return lo === -1 ? -1 : hi * 16 + lo
}

/** An escape at `i` that Hono decodes into a character Express only matches unescaped (`%61` for `a`). */
function isRoutedApart(target: string, i: number): boolean {
  const c = escapedAt(target, i)
  return c !== -1 && c < 128 && NEVER_ESCAPED[c] === 1
}

/**
 * A target made only of characters `new URL()` keeps, without dot segments (`/.`) or escapes Express
 * and Hono read apart (see {@link routesAlike}), so `request.url` can be origin + target and still
 * equal what a real Request would report.
 */
export function isPlainTarget(target: string): boolean {
  if (target.charCodeAt(0) !== 47 /* '/' */) return false
  let inPath = true
  for (let i = 1; i < target.length; i++) {
    const c = target.charCodeAt(i)
    if (c > 127 || TARGET_CHARS[c] === 0) return false
    if (c === 63 /* '?' */) inPath = false
    // The URL parser escapes `'` in a query (not in a path).
    else if (c === 39 /* "'" */ && !inPath) return false
    else if (c === 46 /* '.' */ && target.charCodeAt(i - 1) === 47) return false
    else if (c === 37 /* '%' */ && inPath && isRoutedApart(target, i)) return false
  }
  return true
}

/**
 * The Host header as a real Request would serialize it (lowercase, no default port, IPv4/IPv6 in
 * canonical form), or `undefined` if no URL can hold it. A lowercase reg-name or IPv4 address with no
 * port or a non-default one is returned as it is, without allocating.
 */
function normalHost(host: string, https: boolean): string | undefined {
  const n = host.length
  let i = 0
  // Set for what the character check cannot judge (IPv6 literal, %-escape, a numeric last label that
  // is not a plain dotted quad, a default or zero-padded port): the URL parser decides, off the usual path.
  let ask = false
  let upper = false
  if (host.charCodeAt(0) === 91 /* '[' */) {
    i = 1
    for (; i < n; i++) {
      const c = host.charCodeAt(i)
      if (c === 93 /* ']' */) break
      // hex digits, ':' and '.'
      if (!((c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) || c === 46)) return undefined
    }
    if (i === 1 || i === n) return undefined
    i++
    ask = true
  } else {
    let label = 0
    for (; i < n; i++) {
      const c = host.charCodeAt(i)
      if (c > 127 || REG_NAME_CHARS[c] === 0) break
      if (c === 37 /* '%' */) ask = true
      else if (c <= 90 && c >= 65) upper = true
      else if (c === 46 /* '.' */ && i + 1 < n && host.charCodeAt(i + 1) !== 58) label = i + 1
    }
    if (i === 0) return undefined
    const first = host.charCodeAt(label)
    if (first >= 48 && first <= 57 && !isDottedQuad(host, i)) ask = true
  }
  if (i !== n) {
    if (host.charCodeAt(i) !== 58 /* ':' */ || n - i - 1 > 5) return undefined
    let port = 0
    for (let j = i + 1; j < n; j++) {
      const c = host.charCodeAt(j)
      if (c < 48 || c > 57) return undefined
      port = port * 10 + c - 48
    }
    if (port > 65535) return undefined
    // `:`, `:080`, `:80` on http and `:443` on https are dropped or rewritten by the URL serializer.
    if (i + 1 === n || host.charCodeAt(i + 1) === 48 || port === (https ? 443 : 80)) ask = true
  }
  if (ask) return parsedHost(host, https)
  return upper ? host.toLowerCase() : host
}

/** `a.b.c.d`, each part 0–255 in decimal without leading zeros, ending at `end`. */
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
      // `010` is octal to the URL parser (and `000` becomes `0`): let it decide.
      if (digits > 1 && value === 0) return false
      value = value * 10 + c - 48
      if (value > 255) return false
    } else {
      return false
    }
  }
  return parts === 4 && digits !== 0
}

function parsedHost(host: string, https: boolean): string | undefined {
  try {
    return new URL(`${https ? 'https' : 'http'}://${host}/`).host
  } catch {
    return undefined
  }
}

/** What Express adds to a request that the URL depends on. */
export interface ExpressLikeRequest extends IncomingMessage {
  app?: { settings?: Record<string, unknown> }
  baseUrl?: string
  originalUrl?: string
}

/** The origin (`scheme://host`) of a request, following Express's trust-proxy rules when present. */
export function requestOrigin(req: ExpressLikeRequest, headers: IncomingHttpHeaders = req.headers): string {
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean }
  let proto = socket && socket.encrypted ? 'https' : 'http'
  let host = headers.host
  const settings = req.app?.settings
  if (settings !== undefined) {
    const trust = settings['trust proxy fn'] as ((addr: string | undefined, i: number) => boolean) | undefined
    if (trust !== undefined && trust(socket?.remoteAddress, 0)) {
      const fproto = headers['x-forwarded-proto']
      if (typeof fproto === 'string' && fproto !== '') {
        const comma = fproto.indexOf(',')
        proto = (comma === -1 ? fproto : fproto.slice(0, comma)).trim().toLowerCase()
        if (proto !== 'http' && proto !== 'https') throw new BadRequestError('Invalid X-Forwarded-Proto')
      }
      const fhost = headers['x-forwarded-host']
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
  }
  // Keep-alive clients send the same Host on every request: reuse the last origin built.
  if (host === lastHost && proto === lastProto) return lastOrigin
  const normal = normalHost(host, proto === 'https')
  if (normal === undefined) throw new BadRequestError('Invalid Host header')
  lastHost = host
  lastProto = proto
  return (lastOrigin = `${proto}://${normal}`)
}

let lastHost = ''
let lastProto = ''
let lastOrigin = ''

/**
 * The target Express routed, as the app gets it under `mountPath: 'keep'`: `baseUrl + url`, except
 * that Express turns `/api?x=1` into url `/?x=1` under `/api`: the client sent no slash after the
 * mount path, so none is added back (a Hono route `/api` must still match). Connect has no `baseUrl`:
 * its mount prefix is what `originalUrl` has in front of `url`.
 */
function keptTarget(req: ExpressLikeRequest, url: string): string {
  const baseUrl = req.baseUrl
  let originalUrl = req.originalUrl
  if (originalUrl !== undefined && originalUrl.charCodeAt(0) !== 47) originalUrl = originForm(originalUrl)
  if (baseUrl === undefined) {
    if (originalUrl === undefined || originalUrl === url) return url
    // Connect strips the prefix and adds a leading slash where none was left (`/api?x=1` → `/?x=1`).
    if (originalUrl.endsWith(url) || originalUrl.endsWith(url.slice(1))) return originalUrl
    return url
  }
  if (baseUrl === '') return url
  const c = url.charCodeAt(1)
  if (url.charCodeAt(0) === 47 && (url.length === 1 || c === 63) /* '?' */ && originalUrl !== undefined) {
    const next = originalUrl.charCodeAt(baseUrl.length)
    if (next !== 47 /* '/' */ && originalUrl.startsWith(baseUrl)) return baseUrl + url.slice(1)
  }
  return baseUrl + url
}

/**
 * The path and query of an absolute-form target (`http://host/p?q`, which Express routes on its
 * path); throws for anything else that is not origin-form (`*`, authority-form).
 */
function originForm(target: string): string {
  const scheme = target.indexOf('://')
  if (scheme <= 0) throw new BadRequestError('Invalid request target')
  let i = scheme + 3
  for (; i < target.length; i++) {
    const c = target.charCodeAt(i)
    if (c === 47 /* '/' */ || c === 63 /* '?' */ || c === 35 /* '#' */) break
    // The legacy parser Express routes with reads a backslash as a slash, the URL parser as part of the host.
    if (c === 92 /* '\\' */) throw new BadRequestError('Invalid request target')
  }
  const rest = target.slice(i)
  return rest.charCodeAt(0) === 47 ? rest : '/' + rest
}

/**
 * Whether Express (which routes on the raw target), the URL parser (which builds `request.url`) and
 * Hono (which routes on that path after `decodeURI`) all read the same segments: no dot segment
 * (`.`, `..`: the URL parser resolves them), no backslash (read as `/`), no control character or space
 * (dropped or escaped), and no escape of a character no encoder escapes (`%61dmin` is `/admin` to
 * Hono, not to an Express guard on `/admin`; `%2e` is a dot). A target that fails is never the app's:
 * it is handed on untouched, or answered 400. Other escapes read alike: Hono decodes `%20` or
 * `%E2%9C%93` into a character no client sends unescaped, so an Express route must name it escaped
 * too, and `%2F`, `%3F`, `%25` stay escaped for both.
 */
function routesAlike(target: string): boolean {
  let dots = 0 // dots in the current segment, -1 once anything else is in it
  for (let i = 1; i <= target.length; i++) {
    const c = i === target.length ? 47 : target.charCodeAt(i)
    if (c === 47 /* '/' */ || c === 63 /* '?' */ || c === 35 /* '#' */) {
      if (dots === 1 || dots === 2) return false
      if (c !== 47) return true
      dots = 0
    } else if (c === 92 /* '\\' */ || c <= 32 || c === 127) {
      return false
    } else if (c === 46 /* '.' */) {
      if (dots >= 0) dots++
    } else if (c === 37 /* '%' */ && isRoutedApart(target, i)) {
      return false
    } else {
      dots = -1
    }
  }
  return true
}

/**
 * The path and query the app routes on: `req.url`, or under `mountPath: 'keep'` the full target
 * Express routed (see {@link keptTarget}). Unvalidated: for reports, not for building a Request.
 */
export function appTarget(req: ExpressLikeRequest, keepMountPath: boolean, routing?: TargetRouting): string {
  const url = req.url ?? '/'
  const target = keepMountPath ? keptTarget(req, url) : url
  return routing === undefined ? target : routed(req, target, keepMountPath, routing)
}

/** `target` respelled under `expressRouting` (see routed-target.ts); a kept mount prefix is Express's already. */
function routed(req: ExpressLikeRequest, target: string, keepMountPath: boolean, routing: TargetRouting): string {
  return routedTarget(routing, req.method ?? 'GET', target, keepMountPath ? (req.baseUrl?.length ?? 0) : 0)
}

/**
 * The full request URL: origin + path and query, byte-exact where a real Request would keep them.
 * Throws a `BadRequestError` for a target the app must not get (see {@link routesAlike}).
 */
export function requestUrl(
  req: ExpressLikeRequest,
  origin: string,
  keepMountPath: boolean,
  routing?: TargetRouting,
): string {
  let target = req.url ?? '/'
  if (target.charCodeAt(0) !== 47 /* '/' */) target = originForm(target)
  if (keepMountPath) target = keptTarget(req, target)
  if (routing !== undefined) target = routed(req, target, keepMountPath, routing)
  if (isPlainTarget(target)) return origin + target
  if (!routesAlike(target)) throw new BadRequestError('Request target that Express and the app would route apart')
  let url: URL
  try {
    url = new URL(origin + target)
  } catch {
    throw new BadRequestError('Invalid request target')
  }
  // An absolute-form target keeps our origin: the Host/proxy rules decide it, not the client. Sliced
  // from href, not pathname + search: an empty query (`/p?`) is kept, as a real Request keeps it.
  const href = url.href
  const hash = href.indexOf('#', url.origin.length)
  return origin + href.slice(url.origin.length, hash === -1 ? href.length : hash)
}

/**
 * How Express code run inside the app (`expressMiddleware()`) must see the request so that it routes
 * on the path the app routes on: `url` is the path and query of the app's Request URL, with the
 * escapes Hono decodes and Express would not match ({@link isRoutedApart}) decoded, and `baseUrl` is
 * `''` when the app got the full path (`mountPath: 'keep'`). `undefined` when `req` already reads so,
 * as it does for every request the bridge hands to the app in middleware mode under `'strip'`.
 */
export function expressView(
  req: ExpressLikeRequest,
  appUrl: string,
): { url: string; baseUrl: string | undefined } | undefined {
  const pathStart = appUrl.indexOf('/', appUrl.indexOf('//') + 2)
  let target = pathStart === -1 ? '/' : appUrl.slice(pathStart)
  const current = req.url ?? '/'
  const query = target.indexOf('?')
  const end = query === -1 ? target.length : query
  let percent = target.indexOf('%')
  if (percent !== -1 && percent < end) {
    let out = ''
    let from = 0
    for (; percent !== -1 && percent < end; percent = target.indexOf('%', percent + 1)) {
      if (!isRoutedApart(target, percent)) continue
      out += target.slice(from, percent) + String.fromCharCode(escapedAt(target, percent))
      from = percent + 3
    }
    if (from !== 0) target = out + target.slice(from)
  }
  if (target === current) return undefined
  const baseUrl = req.baseUrl
  const full = baseUrl ? keptTarget(req, current.charCodeAt(0) === 47 ? current : originForm(current)) : undefined
  return { url: target, baseUrl: full === target ? '' : baseUrl }
}
