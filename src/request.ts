import type { IncomingMessage, ServerResponse } from 'node:http'
import { delegateRemaining } from './delegate.js'
import { requestHeaders } from './headers.js'

/**
 * A lazy fetch Request over a Node request. `method`, `url` and `headers` are served without a real
 * Request; `text()`, `json()`, `arrayBuffer()`, `blob()` and `bytes()` read the socket directly; any
 * other member (formData, clone, cache…) builds a real Request once, whose body streams from the socket.
 */

const OriginalRequest: typeof Request = globalThis.Request

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

/** Thrown for a request whose URL cannot be formed (bad Host, bad target): answered with 400. */
export class BadRequestError extends Error {
  readonly status = 400
  constructor(message: string) {
    super(message)
    this.name = 'BadRequestError'
  }
}

interface ExpressLikeRequest extends IncomingMessage {
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

/** Whether the request has body framing (GET/HEAD never do, as for a real Request). */
export function hasBody(req: IncomingMessage): boolean {
  const method = req.method
  if (method === 'GET' || method === 'HEAD') return false
  const headers = req.headers
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

/** Read the whole body from the socket. Rejects if the client goes away first. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (req.readableEnded) return resolve(Buffer.alloc(0))
    // Already gone (the client left before the app read): no event will ever come.
    if (req.destroyed) return reject(bodyAborted())
    const chunks: Buffer[] = []
    let length = 0
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      length += chunk.length
    }
    const onEnd = () => {
      cleanup()
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length))
    }
    const onError = (err: Error) => {
      cleanup()
      reject(err)
    }
    const onClose = () => {
      cleanup()
      if (!req.complete) reject(bodyAborted())
    }
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

function abortError(message: string): Error {
  return new DOMException(message, 'AbortError')
}

function bodyAborted(): Error {
  return abortError('The client closed the connection before the body was read')
}

/** The request body as a web stream that pulls from the socket (backpressure through pause/resume). */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (req.destroyed) {
          done = true
          controller.error(bodyAborted())
          return
        }
        req.on('data', (chunk: Buffer) => {
          if (done) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 1) <= 0) req.pause()
        })
        req.once('end', () => {
          if (done) return
          done = true
          controller.close()
        })
        req.once('error', (err) => {
          if (done) return
          done = true
          controller.error(err)
        })
        req.once('close', () => {
          if (done || req.complete) return
          done = true
          controller.error(bodyAborted())
        })
        req.pause()
      },
      pull() {
        req.resume()
      },
      cancel() {
        done = true
        // Keep the connection usable: discard the rest instead of destroying the socket.
        req.resume()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

/** What Express body parsers leave on the request. */
interface ParsedRequest extends IncomingMessage {
  /** Set by body-parser once it has read the stream. */
  _body?: boolean
  body?: unknown
  /** The raw bytes, when a `verify` callback or custom middleware kept them. */
  rawBody?: unknown
}

/** True when earlier middleware (express.json() and co., multer…) has already read the body stream. */
function bodyConsumed(req: ParsedRequest): boolean {
  return req.readableEnded || req._body === true
}

function contentType(req: IncomingMessage): { type: string; charset: string | undefined } {
  const header = req.headers['content-type'] ?? ''
  const semi = header.indexOf(';')
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
  const charset = semi === -1 ? undefined : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header)?.[1]?.toLowerCase()
  return { type, charset }
}

function appendForm(params: URLSearchParams, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      // Repeated keys round-trip through both querystring and qs; objects need an index.
      appendForm(params, item !== null && typeof item === 'object' ? `${key}[${i}]` : key, item)
    }
  } else if (value !== null && typeof value === 'object') {
    for (const k of Object.keys(value)) appendForm(params, `${key}[${k}]`, (value as Record<string, unknown>)[k])
  } else {
    params.append(key, value === null || value === undefined ? '' : String(value))
  }
}

/**
 * Rebuild a body that an Express parser already read: `req.rawBody` when it is a Buffer, else `req.body`
 * serialised back according to the content type. Throws a TypeError for what cannot be rebuilt.
 */
export function rebuildBody(req: ParsedRequest): Buffer {
  const raw = req.rawBody
  if (raw instanceof Uint8Array) return Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const body = req.body
  if (Buffer.isBuffer(body)) return body
  const { type, charset } = contentType(req)
  if (typeof body === 'string') {
    // express.text() decoded with the declared charset: encode back to the bytes the client sent.
    const encoding = charset === 'iso-8859-1' ? 'latin1' : charset
    return Buffer.from(body, encoding !== undefined && Buffer.isEncoding(encoding) ? encoding : 'utf8')
  }
  if (body !== undefined && type !== 'multipart/form-data') {
    if (type === 'application/x-www-form-urlencoded') {
      if (body !== null && typeof body === 'object') {
        const params = new URLSearchParams()
        for (const key of Object.keys(body)) appendForm(params, key, (body as Record<string, unknown>)[key])
        return Buffer.from(params.toString())
      }
    } else {
      const json = JSON.stringify(body)
      if (json !== undefined) return Buffer.from(json)
    }
  }
  throw new TypeError(
    `express-fetch-bridge: the request body (${type || 'no content type'}) was already consumed by earlier ` +
      'middleware and cannot be rebuilt. Mount the bridge before that middleware (e.g. multer), or keep the ' +
      'raw bytes in req.rawBody (express.json({ verify: (req, res, buf) => { req.rawBody = buf } })).',
  )
}

/** Headers describing a rebuilt body: its length, and no Content-Encoding once the parser inflated it. */
function describeRebuilt(headers: Headers, body: Buffer): void {
  const declared = headers.get('content-length')
  if (declared !== String(body.byteLength)) {
    headers.delete('content-encoding')
    headers.set('content-length', String(body.byteLength))
  }
  headers.delete('transfer-encoding')
}

function erroredStream(err: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(err)
    },
  })
}

function decodeUtf8(buf: Buffer): string {
  // Like TextDecoder (and Body.text()), drop a leading byte order mark.
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.toString('utf8', 3)
  return buf.toString('utf8')
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf.buffer as ArrayBuffer
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer
}

let realOf!: (r: LazyRequest) => Request

export class LazyRequest {
  #req: ExpressLikeRequest & ParsedRequest
  #res: ServerResponse | undefined
  #rebuilt: Buffer | undefined
  /** Whether an Express parser read the body before the bridge ran; decided before we read anything. */
  #parsed: boolean | undefined
  #url: string
  #headers: Headers | undefined
  #controller: AbortController | undefined
  #real: Request | undefined
  #used = false

  constructor(req: IncomingMessage, res: ServerResponse | undefined, url: string) {
    this.#req = req
    this.#res = res
    this.#url = url
  }

  static {
    realOf = (r) => r.#materialize()
  }

  #materialize(): Request {
    if (this.#real === undefined) {
      const req = this.#req
      const withBody = hasBody(req) && !this.#used
      let body: ReadableStream<Uint8Array> | Buffer | null = null
      if (withBody) {
        if (this.#parsedByExpress()) {
          try {
            body = this.#rebuild()
          } catch (err) {
            // Reading the body rejects with the explanation; the rest of the Request stays usable.
            body = erroredStream(err)
          }
        } else {
          body = bodyStream(req)
        }
      }
      this.#real = new OriginalRequest(this.#url, {
        method: req.method,
        headers: this.headers,
        body: body as BodyInit | null,
        signal: this.signal,
        // @ts-expect-error: Node's RequestInit needs duplex for stream bodies
        duplex: withBody ? 'half' : undefined,
      })
    }
    return this.#real
  }

  get method(): string {
    return this.#req.method ?? 'GET'
  }
  get url(): string {
    return this.#url
  }
  get headers(): Headers {
    if (this.#headers === undefined) {
      const req = this.#req
      const headers = (this.#headers = requestHeaders(req))
      if (hasBody(req) && this.#parsedByExpress()) {
        try {
          describeRebuilt(headers, this.#rebuild())
        } catch {
          // Not rebuildable: reading the body reports it.
        }
      }
    }
    return this.#headers
  }

  #parsedByExpress(): boolean {
    return (this.#parsed ??= bodyConsumed(this.#req))
  }

  #rebuild(): Buffer {
    return (this.#rebuilt ??= rebuildBody(this.#req))
  }
  /** Aborts when the client goes away before the response has been sent completely. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController())
      const res = this.#res
      if (res !== undefined) {
        if (res.writableFinished) return controller.signal
        if (res.destroyed) {
          controller.abort(abortError('The client disconnected'))
        } else {
          res.once('close', () => {
            if (!res.writableFinished) controller.abort(abortError('The client disconnected'))
          })
        }
      }
    }
    return this.#controller.signal
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.#materialize().body
  }
  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#used
  }

  #direct(): Promise<Buffer> {
    if (this.#real !== undefined) return this.#real.arrayBuffer().then((ab) => Buffer.from(ab))
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'))
    this.#used = true
    const req = this.#req
    if (!hasBody(req)) return Promise.resolve(Buffer.alloc(0))
    if (this.#parsedByExpress()) {
      try {
        return Promise.resolve(this.#rebuild())
      } catch (err) {
        return Promise.reject(err)
      }
    }
    return readBody(req)
  }

  text(): Promise<string> {
    if (this.#real !== undefined) return this.#real.text()
    return this.#direct().then(decodeUtf8)
  }
  json(): Promise<any> {
    if (this.#real !== undefined) return this.#real.json()
    return this.#direct().then((buf) => JSON.parse(decodeUtf8(buf)))
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real !== undefined) return this.#real.arrayBuffer()
    return this.#direct().then(toArrayBuffer)
  }
  bytes(): Promise<Uint8Array> {
    if (this.#real !== undefined) return this.#real.arrayBuffer().then((ab) => new Uint8Array(ab))
    return this.#direct().then((buf) => new Uint8Array(toArrayBuffer(buf)))
  }
  blob(): Promise<Blob> {
    if (this.#real !== undefined) return this.#real.blob()
    const type = this.#req.headers['content-type'] ?? ''
    return this.#direct().then((buf) => new Blob([buf as Uint8Array<ArrayBuffer>], { type }))
  }
  formData(): Promise<FormData> {
    return this.#materialize().formData()
  }
  clone(): Request {
    return this.#materialize().clone()
  }
  get [Symbol.toStringTag](): string {
    return 'Request'
  }
}

// Every other Request member (cache, mode, keepalive…) comes from the real Request.
delegateRemaining(LazyRequest, OriginalRequest, realOf)
Object.setPrototypeOf(LazyRequest.prototype, OriginalRequest.prototype)

/** Build the lazy Request for a Node request. Throws {@link BadRequestError} for a bad Host/target. */
export function createRequest(
  req: IncomingMessage,
  res: ServerResponse | undefined,
  origin: string | undefined,
  keepMountPath: boolean,
): Request {
  const url = requestUrl(req as ExpressLikeRequest, origin ?? requestOrigin(req as ExpressLikeRequest), keepMountPath)
  return new LazyRequest(req, res, url) as unknown as Request
}
