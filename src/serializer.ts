import { ServerResponse, type IncomingMessage } from 'node:http'
import { flattenHeaders, flattenInit, indexOfHeader, mergeWithOutgoing, removeHeader, type FlatHeaders } from './headers.js'
import { drainAfterResponse } from './drain.js'
import { defaultContentType, fillLightState, OriginalResponse, type LightState } from './response.js'

/**
 * Writes a fetch Response onto a Node ServerResponse.
 *
 * Fast path: a lightweight Response with a fixed body goes out as one `writeHead` + `end` with an
 * exact Content-Length, without a real Response ever being built. General path: any Response; a
 * stream body gets its headers flushed at once (the @hono/node-server #244 regression held them
 * back until the first chunk), then chunks are pumped with backpressure.
 */

/** Node's `res.flush()` from the compression middleware. */
type FlushableResponse = ServerResponse & { flush?: () => void }

/** Statuses whose responses end at the header block (RFC 9112 §6.3): no Content-Length, no Transfer-Encoding. */
function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200)
}

// Middleware that wraps writeHead (on-headers ≤ 1.0.2, in morgan 1.10 and older compression and
// express-session) reads an array argument as [name, value] pairs: give such wrappers no list.
const nativeWriteHead = ServerResponse.prototype.writeHead

function writeHead(res: ServerResponse, status: number, statusText: string, flat: FlatHeaders): void {
  if (res.writeHead !== nativeWriteHead || needsMerge(res, flat)) {
    // Node 20's writeHead applies a flat list with setHeader when earlier middleware set headers, so a
    // repeated name (two Set-Cookie) would keep only the last value, and Set-Cookie/Vary need merging
    // with the earlier values: replace the earlier values ourselves and append every line.
    mergeWithOutgoing(res, flat)
    for (let i = 0; i < flat.length; i += 2) res.removeHeader(flat[i])
    try {
      for (let i = 0; i < flat.length; i += 2) res.appendHeader(flat[i], flat[i + 1])
    } catch (err) {
      dropHeaders(res, flat)
      throw err
    }
    if (statusText === '') res.writeHead(status)
    else res.writeHead(status, statusText)
    return
  }
  // Common case: each name once, nothing to merge. Node replaces earlier values of these names
  // (Express's X-Powered-By stays) and, without earlier headers, validates the list before setting any.
  try {
    if (statusText === '') res.writeHead(status, flat)
    else res.writeHead(status, statusText, flat)
  } catch (err) {
    dropHeaders(res, flat)
    throw err
  }
}

/** After an invalid header name or value (CR/LF…) nothing was sent and the caller answers 500: drop
 * the app's headers set so far so the error page does not carry half of them. */
function dropHeaders(res: ServerResponse, flat: FlatHeaders): void {
  if (res.headersSent) return
  for (let i = 0; i < flat.length; i += 2) {
    if (typeof flat[i] === 'string') {
      try {
        res.removeHeader(flat[i])
      } catch {
        // an invalid name was never set
      }
    }
  }
}

/**
 * Whether the app's headers need {@link mergeWithOutgoing} and one-by-one appending: framing headers
 * set by earlier middleware, Set-Cookie/Vary already on `res`, or a name the app repeats. Costs a few
 * length comparisons for the usual two or three headers (no getHeaderNames() array).
 */
function needsMerge(res: ServerResponse, flat: FlatHeaders): boolean {
  if (res.hasHeader('content-length') || res.hasHeader('transfer-encoding')) return true
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    const len = name.length
    if (len === 10 || len === 4) {
      const lower = name.toLowerCase()
      if ((lower === 'set-cookie' || lower === 'vary') && res.hasHeader(lower)) return true
    }
    for (let j = 0; j < i; j += 2) {
      const other = flat[j]
      if (other.length === len && (other === name || other.toLowerCase() === name.toLowerCase())) return true
    }
  }
  return false
}

function toBuffer(body: ArrayBuffer | ArrayBufferView): Buffer {
  return body instanceof ArrayBuffer
    ? Buffer.from(body)
    : Buffer.from(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength)
}

/** Send a fixed body with an exact Content-Length (none for null-body statuses; 205 gets 0), never chunked. */
function endFixed(req: IncomingMessage, res: ServerResponse, status: number, statusText: string, flat: FlatHeaders, data: string | Buffer): void {
  // The body is fixed: framing headers copied from a chunked upstream response do not describe it.
  removeHeader(flat, 'content-length')
  removeHeader(flat, 'transfer-encoding')
  if (isNullBodyStatus(status)) {
    writeHead(res, status, statusText, flat)
    res.end()
  } else {
    flat.push('content-length', String(typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength))
    writeHead(res, status, statusText, flat)
    res.end(data)
  }
  // One property read on the fast path; the drain itself only for a body the app left unread.
  if (!req.complete) drainAfterResponse(req)
}

/**
 * Write `response` to `res`. Returns a promise only when the body is asynchronous (Blob, stream);
 * rejects (or throws) only before anything was sent, so the caller can still answer with an error.
 */
// Reused for every response: filled and read synchronously at the top of writeResponse.
const state: LightState = {
  status: 200,
  statusText: '',
  body: null,
  headers: undefined,
  init: undefined,
  headLength: undefined,
  headSource: undefined,
}

export function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  if (fillLightState(response, state)) {
    const { status, statusText, body, headers, init, headLength, headSource } = state
    // Do not keep the last response's body alive through the shared object.
    state.body = null
    state.headers = state.init = state.headSource = undefined
    const flat: FlatHeaders = []
    if (headers !== undefined) flattenHeaders(headers, flat)
    else {
      flattenInit(init, flat)
      const type = body === null ? undefined : defaultContentType(body)
      if (type !== undefined && indexOfHeader(flat, 'content-type') === -1) flat.push('content-type', type)
    }
    if (body === null) {
      if (req.method === 'HEAD') return endHead(res, status, statusText, flat, headLength, headSource)
      return endFixed(req, res, status, statusText, flat, '')
    }
    if (typeof body === 'string') return endFixed(req, res, status, statusText, flat, body)
    if (body instanceof ReadableStream) return pumpStream(res, req, status, statusText, flat, body)
    if (body instanceof Blob) {
      return body.arrayBuffer().then((ab) => endFixed(req, res, status, statusText, flat, Buffer.from(ab)))
    }
    if (body instanceof URLSearchParams) return endFixed(req, res, status, statusText, flat, body.toString())
    return endFixed(req, res, status, statusText, flat, toBuffer(body))
  }
  if (!(response instanceof OriginalResponse)) {
    throw new TypeError(`The app did not return a Response (got ${describe(response)})`)
  }
  const type = response.type
  if (type === 'error') throw new TypeError('The app returned Response.error()')
  const flat: FlatHeaders = []
  flattenHeaders(response.headers, flat)
  const body = response.body
  // A Response from fetch() (`return fetch(upstream)`) has a body the platform already decoded, but
  // keeps the upstream's Content-Encoding and Content-Length: passed on, they would describe bytes the
  // client never gets.
  if (type !== 'default' && body !== null) dropDecodedFraming(flat)
  if (body === null) {
    if (req.method === 'HEAD') return endHead(res, response.status, response.statusText, flat, undefined, undefined)
    return endFixed(req, res, response.status, response.statusText, flat, '')
  }
  return pumpStream(res, req, response.status, response.statusText, flat, body)
}

// The codings fetch() decodes; with any other in the list it leaves the body as it came.
const DECODED_CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br'])

function dropDecodedFraming(flat: FlatHeaders): void {
  const i = indexOfHeader(flat, 'content-encoding')
  if (i === -1) return
  const codings = flat[i + 1].toLowerCase().split(',')
  for (const coding of codings) if (!DECODED_CODINGS.has(coding.trim())) return
  removeHeader(flat, 'content-encoding')
  removeHeader(flat, 'content-length')
}

/**
 * A bodiless answer: to HEAD, or with a null-body status (no framing headers then). For HEAD, the length
 * of the GET body it replaced (Hono's `new Response(null, res)`) is sent; otherwise the app's own
 * Content-Length, if any, is kept and none is made up. A stream left behind is cancelled so its
 * producer stops.
 */
function endHead(
  res: ServerResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  length: number | undefined,
  source: ReadableStream | undefined,
): void {
  if (isNullBodyStatus(status)) {
    removeHeader(flat, 'content-length')
    removeHeader(flat, 'transfer-encoding')
  } else if (length !== undefined) {
    removeHeader(flat, 'content-length')
    flat.push('content-length', String(length))
  }
  try {
    writeHead(res, status, statusText, flat)
  } finally {
    if (source !== undefined) source.cancel().catch(ignore)
  }
  res.end()
}

function ignore(): void {}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value !== 'object') return typeof value
  return (value as object).constructor?.name ?? 'object'
}

async function pumpStream(
  res: FlushableResponse,
  req: IncomingMessage,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  stream: ReadableStream<Uint8Array>,
): Promise<void> {
  if (req.method === 'HEAD' || isNullBodyStatus(status)) {
    // Bodiless answer (HEAD, 204, 304…): the stream is cancelled unread.
    endHead(res, status, statusText, flat, undefined, stream)
    if (!req.complete) drainAfterResponse(req)
    return
  }
  if (res.destroyed) {
    // The client left while the app was working: its 'close' is past, so nothing would stop the producer.
    stream.cancel().catch(ignore)
    return
  }
  const reader = stream.getReader()
  try {
    writeHead(res, status, statusText, flat)
  } catch (err) {
    // Invalid header from the app: nothing was sent, so the caller answers 500; stop the producer.
    reader.cancel(err).catch(ignore)
    throw err
  }
  // Headers go out at once (an SSE or long-poll client must see them before the first event), but in
  // the same write as the chunks the stream already holds: the socket stays corked until
  // setImmediate, after this turn's promise jobs, so 16 queued chunks cost one writev, not 17 writes.
  const batch = new WriteBatch(res)
  batch.start()
  res.flushHeaders()
  // A Content-Length the app declared for its stream must hold: a short or long body would leave a
  // keep-alive client waiting for bytes, or reading the excess as the next response.
  const declared = indexOfHeader(flat, 'content-length')
  let remaining = declared === -1 ? -1 : Number(flat[declared + 1])
  if (!(remaining >= 0)) remaining = -1

  let closed = false
  let wake: (() => void) | undefined
  const onClose = () => {
    closed = true
    batch.stop()
    reader.cancel().catch(() => {})
    wake?.()
  }
  res.once('close', onClose)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (closed) return
      if (done) break
      if (value === undefined || value.byteLength === 0) continue
      if (remaining !== -1 && (remaining -= value.byteLength) < 0) {
        throw new RangeError('The response stream produced more bytes than its Content-Length')
      }
      batch.start()
      const ok = res.write(value)
      if (!ok && !closed) {
        // Nothing drains a corked socket: send what we have, then wait.
        batch.flush()
        await new Promise<void>((resolve) => {
          wake = resolve
          res.once('drain', resolve)
        })
        if (closed) {
          // Woken by 'close': the 'drain' that will never come must not keep its listener.
          res.off('drain', wake!)
          return
        }
        wake = undefined
      }
    }
    if (remaining > 0) throw new RangeError('The response stream ended before its Content-Length')
    batch.stop()
    res.end()
    if (!req.complete) drainAfterResponse(req)
  } catch (err) {
    batch.stop()
    reader.cancel(err).catch(() => {})
    // Headers are out: the only honest signal left to the client is an incomplete body; the caller
    // cuts the connection and reports the error (next(err) under Express).
    if (!closed) throw err
  } finally {
    res.off('close', onClose)
  }
}

/**
 * Corks the response's socket for the rest of the current event-loop turn, so writes issued by
 * promise jobs of this turn (chunks a stream already holds) leave in one writev; `res.flush()` (the
 * compression middleware's) runs once per batch.
 */
class WriteBatch {
  #res: FlushableResponse
  #timer: NodeJS.Immediate | undefined = undefined

  constructor(res: FlushableResponse) {
    this.#res = res
  }

  start(): void {
    if (this.#timer !== undefined) return
    this.#res.cork()
    this.#timer = setImmediate(WriteBatch.#onImmediate, this)
  }

  /** Uncork now and flush the compressor. */
  flush(): void {
    if (this.#timer === undefined) return
    clearImmediate(this.#timer)
    this.#timer = undefined
    this.#res.uncork()
    this.#res.flush?.()
  }

  /** Uncork without flushing (before end(), destroy() or after 'close'). */
  stop(): void {
    if (this.#timer === undefined) return
    clearImmediate(this.#timer)
    this.#timer = undefined
    this.#res.uncork()
  }

  static #onImmediate(batch: WriteBatch): void {
    batch.#timer = undefined
    batch.#res.uncork()
    batch.#res.flush?.()
  }
}
