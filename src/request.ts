import type { IncomingMessage, ServerResponse } from 'node:http'
import { requestHeaders } from './headers.js'

/**
 * A lazy fetch Request over a Node request. `method`, `url` and `headers` are served without a real
 * Request; `text()`, `json()`, `arrayBuffer()`, `blob()` and `bytes()` read the socket directly; any
 * other member (formData, clone, cache…) builds a real Request once, whose body streams from the socket.
 */

const OriginalRequest: typeof Request = globalThis.Request

// Characters that `new URL()` keeps as they are in a path or query; anything else (and dot segments)
// goes through the URL parser so `request.url` equals what a real Request would report.
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/
const DOT_SEGMENT = /\/\.|%2e/i

// A Host header we can put in a URL unchanged: reg-name or IPv4 with optional port, or an IPv6 literal.
const VALID_HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]+|\[[0-9A-Fa-f:.]+\])(?::\d{0,5})?$/

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
  } else if (!VALID_HOST.test(host)) {
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
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) return origin + target
  let url: URL
  try {
    url = target.charCodeAt(0) === 47 /* '/' */ ? new URL(origin + target) : new URL(target)
  } catch {
    throw new BadRequestError('Invalid request target')
  }
  // An absolute-form target keeps our origin: the Host/proxy rules decide it, not the client.
  return origin + url.pathname + url.search
}

function hasBody(req: IncomingMessage): boolean {
  const method = req.method
  if (method === 'GET' || method === 'HEAD') return false
  const headers = req.headers
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

/** Read the whole body from the socket. Rejects if the client goes away first. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (req.readableEnded) return resolve(Buffer.alloc(0))
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
      if (!req.complete) reject(abortError('The client closed the connection before the body was read'))
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

/** The request body as a web stream that pulls from the socket (backpressure through pause/resume). */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
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
          controller.error(abortError('The client closed the connection before the body was read'))
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
  #req: ExpressLikeRequest
  #res: ServerResponse | undefined
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
      this.#real = new OriginalRequest(this.#url, {
        method: req.method,
        headers: this.headers,
        body: withBody ? bodyStream(req) : null,
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
    return (this.#headers ??= requestHeaders(this.#req))
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
    return hasBody(this.#req) ? readBody(this.#req) : Promise.resolve(Buffer.alloc(0))
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
for (const key of Object.getOwnPropertyNames(OriginalRequest.prototype)) {
  if (key === 'constructor' || Object.prototype.hasOwnProperty.call(LazyRequest.prototype, key)) continue
  const desc = Object.getOwnPropertyDescriptor(OriginalRequest.prototype, key)!
  if (typeof desc.value === 'function') {
    Object.defineProperty(LazyRequest.prototype, key, {
      configurable: true,
      writable: true,
      value(this: LazyRequest, ...args: unknown[]) {
        return (realOf(this) as any)[key](...args)
      },
    })
  } else if (desc.get) {
    Object.defineProperty(LazyRequest.prototype, key, {
      configurable: true,
      get(this: LazyRequest) {
        return (realOf(this) as any)[key]
      },
    })
  }
}
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
