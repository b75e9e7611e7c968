import type { IncomingMessage, ServerResponse } from 'node:http'
import { delegateRemaining } from './delegate.js'
import { requestHeaders } from './headers.js'
import { bodyConsumed, describeRebuilt, rebuildBody, type ParsedRequest } from './rebuilt-body.js'
import { abortError, bodyStream, hasBody, readBody } from './request-body.js'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from './url.js'
import type { BodyInit } from './fetch-types.js'

/**
 * A lazy fetch Request over a Node request. `method`, `url` and `headers` are served without a real
 * Request; `text()`, `json()`, `arrayBuffer()`, `blob()` and `bytes()` read the socket directly; any
 * other member (formData, clone, cache…) builds a real Request once, whose body streams from the socket.
 */

/** The platform's Request, captured before anything could replace the global. */
const OriginalRequest: typeof Request = globalThis.Request

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
        // @ts-ignore: the DOM lib's RequestInit lacks duplex (Node's has it); the build has no DOM lib
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

/** Build the lazy Request for a Node request. Throws a `BadRequestError` for a bad Host/target. */
export function createRequest(
  req: IncomingMessage,
  res: ServerResponse | undefined,
  origin: string | undefined,
  keepMountPath: boolean,
): Request {
  const url = requestUrl(req as ExpressLikeRequest, origin ?? requestOrigin(req as ExpressLikeRequest), keepMountPath)
  return new LazyRequest(req, res, url) as unknown as Request
}
