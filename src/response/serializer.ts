/**
 * Writes a fetch Response onto a Node ServerResponse.
 *
 * Fast path: a lightweight Response with a fixed body goes out as one `writeHead` + `end` with an
 * exact Content-Length, without a real Response ever being built. General path: any Response; a
 * stream body gets its headers flushed at once (the @hono/node-server #244 regression held them
 * back until the first chunk), then chunks are pumped with backpressure.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { endFixed, endHead, toBytes } from './fixed-body.js'
import { indexOfHeader, removeHeader, type FlatHeaders } from '../core/headers.js'
import { flattenHeaders } from '../core/light-headers.js'
import { defaultContentType, fillLightState, OriginalResponse, type LightState } from './response.js'
import { pumpStream } from './stream-pump.js'
import { ALREADY_SENT_HEADER } from '../core/already-sent.js'

// Reused for every response: filled and read synchronously at the top of writeResponse.
const state: LightState = {
  status: 200,
  statusText: '',
  body: null,
  headers: undefined,
  flat: undefined,
  headLength: undefined,
  headSource: undefined,
}

/**
 * Write `response` to `res`. Returns a promise only when the body is asynchronous (Blob, stream);
 * rejects (or throws) only before anything was sent, so the caller can still answer with an error.
 */
export function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  if (fillLightState(response, state)) {
    const { status, statusText, body, headers, flat: copied, headLength, headSource } = state
    // Do not keep the last response's body alive through the shared object.
    state.body = null
    state.headers = state.flat = state.headSource = undefined
    if (!redefined(response, status, statusText)) {
      let flat: FlatHeaders
      if (headers !== undefined) flattenHeaders(headers, (flat = []))
      else {
        // The response's copy is shared with its clones: extend a copy of it. Pushed one by one: an
        // array grown from empty has room for the Content-Length to come, a slice() would grow again.
        flat = []
        if (copied !== undefined) for (let i = 0; i < copied.length; i++) flat.push(copied[i])
        const type = body === null ? undefined : defaultContentType(body)
        if (type !== undefined && indexOfHeader(flat, 'content-type') === -1) flat.push('content-type', type)
      }
      if (body === null) {
        if (indexOfHeader(flat, ALREADY_SENT_HEADER) !== -1) return
        if (req.method === 'HEAD') return endHead(res, status, statusText, flat, headLength, headSource)
        return endFixed(req, res, status, statusText, flat, '')
      }
      if (typeof body === 'string') return endFixed(req, res, status, statusText, flat, body)
      if (body instanceof ReadableStream) return pumpStream(req, res, status, statusText, flat, body)
      if (body instanceof Blob) {
        return body.arrayBuffer().then((ab) => endFixed(req, res, status, statusText, flat, new Uint8Array(ab)))
      }
      if (body instanceof URLSearchParams) return endFixed(req, res, status, statusText, flat, body.toString())
      return endFixed(req, res, status, statusText, flat, toBytes(body))
    }
  }
  if (!(response instanceof OriginalResponse) && !isResponseLike(response)) {
    throw new TypeError(`The app did not return a Response (got ${describe(response)})`)
  }
  const type = response.type
  if (type === 'error') throw new TypeError('The app returned Response.error()')
  const flat: FlatHeaders = []
  flattenHeaders(response.headers, flat)
  // A Response-shaped object without a body (hono/cache's tests return `{ status, headers, clone }` for
  // statuses the constructor refuses) has none: its status and headers go out, as on Hono's own hosts.
  const body = response.body ?? null
  const statusText = typeof response.statusText === 'string' ? response.statusText : ''
  // A Response from fetch() (`return fetch(upstream)`) has a body the platform already decoded, but
  // keeps the upstream's Content-Encoding and Content-Length: passed on, they would describe bytes the
  // client never gets.
  if (type !== 'default' && type !== undefined && body !== null) dropDecodedFraming(flat)
  if (body === null) {
    // RESPONSE_ALREADY_SENT (ours or @hono/node-server's): the handler wrote to res itself.
    if (indexOfHeader(flat, ALREADY_SENT_HEADER) !== -1) return
    if (req.method === 'HEAD') return endHead(res, response.status, statusText, flat, undefined, undefined)
    return endFixed(req, res, response.status, statusText, flat, '')
  }
  return pumpStream(req, res, response.status, statusText, flat, body)
}

/**
 * A status, statusText, headers or body the app defined on the Response itself (`Object.defineProperty(
 * res, 'status', …)`): what the app reads is what is sent, so its own properties are read, not the fast state.
 */
function redefined(response: Response, status: number, statusText: string): boolean {
  // A status or statusText that reads back as the fast state has it sends the same either way: read
  // through the getters (inlined), not looked up as own properties (four lookups: ~1% of an answer).
  return (
    response.status !== status ||
    response.statusText !== statusText ||
    Object.hasOwn(response, 'headers') ||
    Object.hasOwn(response, 'body')
  )
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
 * A Response from another fetch implementation (npm undici, @whatwg-node/fetch…): served by shape, as
 * the platform's. Its body only needs `getReader()`; without one (absent, null or undefined) it has none.
 */
function isResponseLike(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false
  const r = value as {
    status?: unknown
    headers?: { forEach?: unknown; [Symbol.iterator]?: unknown }
    body?: { getReader?: unknown } | null
  }
  return (
    typeof r.status === 'number' &&
    typeof r.headers === 'object' &&
    r.headers !== null &&
    (typeof r.headers[Symbol.iterator] === 'function' || typeof r.headers.forEach === 'function') &&
    (r.body === null || r.body === undefined || typeof r.body.getReader === 'function')
  )
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value !== 'object') return typeof value
  return (value as object).constructor?.name ?? 'object'
}
