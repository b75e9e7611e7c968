/**
 * An HTTP/2 exchange (node:http2's compatibility request and response) as the bridge and HTTP/1.1 code
 * read it. One rule, the one an HTTP/2 → HTTP/1.1 intermediary follows (RFC 9113 §8.2.2, §8.3.1): the
 * request gets a Host from `:authority` and, for a body without Content-Length, the chunked framing
 * HTTP/1.1 would have given it; the response drops what HTTP/2 has no place for (a reason phrase,
 * connection-specific fields) instead of throwing. Everything else is node:http2's own.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { Http2ServerRequest, Http2ServerResponse, type ServerHttp2Stream } from 'node:http2'
import { connectionTokens, isConnectionSpecific } from './connection-headers.js'

const PREPARED = Symbol('express-fetch-bridge/http2')
const NAMED = Symbol('express-fetch-bridge/connection-named')

type H2Request = Http2ServerRequest & { [PREPARED]?: true }
type H2Response = Http2ServerResponse & { [NAMED]?: string[] }
type Headers2 = Record<string, string | string[] | undefined>

const h2 = Http2ServerResponse.prototype
const nativeWriteHead = h2.writeHead
const nativeSetHeader = h2.setHeader
const nativeAppendHeader = (h2 as { appendHeader?: (name: string, value: unknown) => unknown }).appendHeader
const nativeComplete = Object.getOwnPropertyDescriptor(Http2ServerRequest.prototype, 'complete')!.get!

/**
 * `complete` as on HTTP/1.1: the whole body has arrived (node:http2's is only true once it was read to
 * its end, and the bridge reads in paused mode, which never reads past what has arrived).
 */
const COMPLETE: PropertyDescriptor = {
  configurable: true,
  get(this: H2Request) {
    return this.stream.readableEnded || nativeComplete.call(this)
  },
}

/** HTTP/2 has no reason phrase: reading one gives '', setting one does nothing (node:http2 warns). */
const STATUS_MESSAGE: PropertyDescriptor = {
  configurable: true,
  get: () => '',
  set() {},
}

/**
 * `writableFinished` as on HTTP/1.1: the response was ended and sent. node:http2's reports the
 * stream's writable side, which a reset also finishes, so a request cancelled by the client
 * (RST_STREAM) would not abort `request.signal`.
 */
const WRITABLE_FINISHED: PropertyDescriptor = {
  configurable: true,
  get(this: H2Response) {
    return this.writableEnded && this.stream.writableFinished
  },
}

/** Prepare an HTTP/2 request and its response for the bridge (idempotent: bridges can be nested). */
export function fromHttp2(req: IncomingMessage, res: ServerResponse): void {
  const r = req as unknown as H2Request
  if (r[PREPARED] === true) return
  r[PREPARED] = true
  const headers = r.headers as Headers2
  const authority = headers[':authority']
  if (headers.host === undefined && typeof authority === 'string') {
    headers.host = authority
    r.rawHeaders.push('host', authority)
  }
  // HTTP/2 frames a body itself; HTTP/1.1 code (the bridge's hasBody, Express's body parsers) looks
  // for Content-Length or Transfer-Encoding. Not in rawHeaders: the app's Request gets no framing field.
  if (
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    !(r.stream as ServerHttp2Stream & { endAfterHeaders: boolean }).endAfterHeaders
  ) {
    headers['transfer-encoding'] = 'chunked'
  }
  Object.defineProperty(r, 'complete', COMPLETE)
  const s = res as unknown as H2Response
  s.writeHead = writeHead as H2Response['writeHead']
  s.setHeader = setHeader as H2Response['setHeader']
  if (nativeAppendHeader !== undefined) (s as { appendHeader?: unknown }).appendHeader = appendHeader
  Object.defineProperty(s, 'statusMessage', STATUS_MESSAGE)
  Object.defineProperty(s, 'writableFinished', WRITABLE_FINISHED)
}

/** Whether a field is dropped on HTTP/2; a `Connection` value's names are remembered and dropped too. */
function dropped(res: H2Response, name: string, value: unknown): boolean {
  const lower = name.toLowerCase()
  if (!isConnectionSpecific(lower, value)) return res[NAMED]?.includes(lower) === true
  if (lower === 'connection') (res[NAMED] ??= []).push(...connectionTokens(value))
  return true
}

function setHeader(this: H2Response, name: string, value: string | number | readonly string[]): H2Response {
  if (typeof name === 'string' && dropped(this, name, value)) return this
  nativeSetHeader.call(this, name, value)
  return this
}

function appendHeader(this: H2Response, name: string, value: string | readonly string[]): H2Response {
  if (typeof name === 'string' && dropped(this, name, value)) return this
  nativeAppendHeader!.call(this, name, value)
  return this
}

function writeHead(this: H2Response, status: number, message?: unknown, headers?: unknown): H2Response {
  if (typeof message !== 'string') headers = message
  if (Array.isArray(headers)) headers = flatWithout(this, headers)
  else if (headers !== undefined && headers !== null) headers = objectWithout(this, headers as Headers2)
  const named = this[NAMED]
  if (named !== undefined && !this.headersSent) for (const name of named) this.removeHeader(name)
  return (nativeWriteHead as (status: number, headers?: unknown) => H2Response).call(this, status, headers)
}

function flatWithout(res: H2Response, list: unknown[]): unknown[] {
  // [name, value, …] or [[name, value], …], as node:http takes them.
  const pairs = Array.isArray(list[0])
  let out: unknown[] | undefined
  const step = pairs ? 1 : 2
  // The names a Connection field lists are dropped wherever they stand in the list.
  for (let i = 0; i < list.length; i += step) {
    const name = pairs ? (list[i] as unknown[])[0] : list[i]
    if (typeof name === 'string' && name.length === 10 && name.toLowerCase() === 'connection') {
      dropped(res, name, pairs ? (list[i] as unknown[])[1] : list[i + 1])
    }
  }
  for (let i = 0; i < list.length; i += step) {
    const name = pairs ? (list[i] as unknown[])[0] : list[i]
    const value = pairs ? (list[i] as unknown[])[1] : list[i + 1]
    if (typeof name === 'string' && dropped(res, name, value)) {
      out ??= list.slice(0, i)
    } else if (out !== undefined) {
      if (pairs) out.push(list[i])
      else out.push(name, value)
    }
  }
  return out ?? list
}

function objectWithout(res: H2Response, headers: Headers2): Headers2 {
  let out: Headers2 | undefined
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'connection') dropped(res, name, headers[name])
  for (const name of Object.keys(headers)) {
    if (dropped(res, name, headers[name])) {
      out ??= { ...headers }
      delete out[name]
    }
  }
  return out ?? headers
}
