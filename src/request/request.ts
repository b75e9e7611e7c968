/**
 * A lazy fetch Request over a Node request. `method`, `url` and `headers` are served without a real
 * Request; `text()`, `json()`, `arrayBuffer()`, `blob()` and `bytes()` read the socket directly; any
 * other member (formData, clone, cache…) builds a real Request once, whose body streams from the socket.
 * A body that is null (GET) or already read follows the platform's rules for bodyUsed, reads and clone().
 */

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { delegateRemaining } from '../core/delegate.js'
import { requestHeaders } from '../core/headers.js'
import { bodyConsumed, describeRebuilt, rebuildBody, type ParsedRequest } from './rebuilt-body.js'
import { abortError, framesBody, type EndHold } from './body-read.js'
import { answered, bodyStream, readBody } from './request-body.js'
import { REAL_REQUEST } from '../core/process-shared.js'
import { PlatformRequest, PlatformResponse } from '../core/platform.js'
import { isForbiddenMethod, platformRequest } from './forbidden-method.js'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from './url.js'
import type { TargetRouting } from '../core/routed-target.js'
import type { BodyInit } from '../core/fetch-types.js'

/** The platform's Request, captured before anything could replace the global. */

function erroredStream(err: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(err)
    },
  })
}

const EMPTY = Buffer.alloc(0)
const INSPECT = Symbol.for('nodejs.util.inspect.custom')
/** How an unread body is shown: the stream it would be, not built yet. */
const LAZY_BODY = { [INSPECT]: () => 'ReadableStream (from the socket, not read yet)' }

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
let answeredOf!: (r: LazyRequest) => void

class LazyRequest {
  #req: ExpressLikeRequest & ParsedRequest
  #res: ServerResponse | undefined
  #rebuilt: Buffer | undefined
  /** Whether an Express parser read the body before the bridge ran; decided before we read anything. */
  #parsed: boolean | undefined
  #url: string
  /** `req.method` as the bridge read it: a Request's method does not change, and reading req costs. */
  #method: string
  /** Whether the request has body framing: decided once, as the bridge saw it. */
  #hasBody: boolean
  /** For a bridged request with a body: holds back its 'end' until the bridge answers. */
  #hold: EndHold | undefined
  #headers: Headers | undefined
  #controller: AbortController | undefined
  #real: Request | undefined
  #used = false

  constructor(
    req: IncomingMessage,
    res: ServerResponse | undefined,
    url: string,
    headers: IncomingHttpHeaders,
    method: string,
  ) {
    this.#req = req
    this.#res = res
    this.#url = url
    this.#method = method
    this.#hasBody = framesBody(method, headers)
    this.#hold = this.#hasBody && res !== undefined ? { answered: false, read: undefined } : undefined
  }

  static {
    realOf = (r) => r.#materialize()
    answeredOf = (r) => {
      if (r.#hold !== undefined) answered(r.#req, r.#hold)
    }
  }

  #materialize(): Request {
    if (this.#real === undefined) {
      const req = this.#req
      const method = this.#method
      const withBody = this.#hasBody && !isForbiddenMethod(method)
      // Read directly already: the real Request gets a body that is used up, as the platform's would be.
      const used = withBody && this.#used
      let body: ReadableStream<Uint8Array> | Buffer | null = null
      if (used) {
        body = new ReadableStream()
      } else if (withBody) {
        if (this.#parsedByExpress()) {
          try {
            body = this.#rebuild()
          } catch (err) {
            // Reading the body rejects with the explanation; the rest of the Request stays usable.
            body = erroredStream(err)
          }
        } else {
          body = bodyStream(req, this.#hold)
        }
      }
      const init: RequestInit & { duplex?: 'half' } = {
        method,
        headers: this.headers,
        body: body as BodyInit | null,
        signal: this.signal,
      }
      // Node's fetch needs duplex for a stream body (the DOM lib's RequestInit lacks it).
      if (withBody) init.duplex = 'half'
      this.#real = platformRequest(this.#url, init)
      // Disturbed and locked, as a body the platform read to the end.
      if (used) void (body as ReadableStream).getReader().cancel()
    }
    return this.#real
  }

  get method(): string {
    return this.#method
  }
  get url(): string {
    return this.#url
  }
  get headers(): Headers {
    if (this.#headers === undefined) {
      const req = this.#req
      const headers = (this.#headers = requestHeaders(req))
      if (this.#hasBody && this.#parsedByExpress()) {
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
    // A GET (or a POST without framing) has no body: no need for the real Request to say so.
    if (this.#real === undefined && !this.#hasBody) return null
    return this.#materialize().body
  }
  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#used
  }

  #direct(): Promise<Buffer> {
    if (this.#real !== undefined) return this.#real.arrayBuffer().then((ab) => Buffer.from(ab))
    const req = this.#req
    // A null body can be read any number of times and is never "used", as on the platform.
    if (!this.#hasBody) return Promise.resolve(EMPTY)
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'))
    this.#used = true
    if (this.#parsedByExpress()) {
      try {
        return Promise.resolve(this.#rebuild())
      } catch (err) {
        return Promise.reject(err)
      }
    }
    return readBody(req, this.#hold)
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
    // The platform parses and serializes the MIME type: let it, from the same Content-Type.
    const type = this.headers.get('content-type')
    return this.#direct().then((buf) =>
      type === null
        ? new Blob([buf as Uint8Array<ArrayBuffer>])
        : new PlatformResponse(buf as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).blob(),
    )
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
  /** The real Request this one stands for, for the global Request and fetch (see globals.ts). */
  [REAL_REQUEST](): Request {
    return this.#materialize()
  }
  /** util.inspect / console.log: what the Request holds, without building the real one. */
  [INSPECT](depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    const real = this.#real
    const shown = {
      method: this.method,
      url: this.url,
      headers: this.headers,
      body: real !== undefined ? real.body : this.#hasBody ? LAZY_BODY : null,
      bodyUsed: this.bodyUsed,
    }
    return `Request ${inspect(shown, { ...options, depth: depth == null ? null : depth - 1 })}`
  }
}

// Every other Request member (cache, mode, keepalive…) comes from the real Request.
delegateRemaining(LazyRequest, PlatformRequest, realOf)
Object.setPrototypeOf(LazyRequest.prototype, PlatformRequest.prototype)

/**
 * The bridge answers the request this lazy Request was made for (writes the app's response, or
 * reports its failure): it can no longer be handed on, so the body's 'end' may come (see EndHold).
 */
export function bridgeAnswers(request: Request): void {
  answeredOf(request as unknown as LazyRequest)
}

/**
 * Build the lazy Request for a Node request. Throws a `BadRequestError` for a bad Host/target.
 * `headers`: `req.headers`, as the caller read them (see framesBody).
 */
export function createRequest(
  req: IncomingMessage,
  res: ServerResponse | undefined,
  origin: string | undefined,
  keepMountPath: boolean,
  routing: TargetRouting | undefined,
  headers: IncomingHttpHeaders,
  method: string,
): Request {
  const url = requestUrl(
    req as ExpressLikeRequest,
    origin ?? requestOrigin(req as ExpressLikeRequest, headers),
    keepMountPath,
    routing,
  )
  return new LazyRequest(req, res, url, headers, method) as unknown as Request
}
