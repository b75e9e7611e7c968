/** Answers whose body is known up front: a fixed body with an exact Content-Length, or none at all. */

import { ServerResponse, type IncomingMessage } from 'node:http'
import { drainAfterResponse } from '../request/drain.js'
import { isFramingName, removeHeader, type FlatHeaders } from '../core/headers.js'
import { writeHead } from './outgoing-headers.js'

/** Statuses whose responses end at the header block (RFC 9112 §6.3): no Content-Length, no Transfer-Encoding. */
export function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200)
}

/** The bytes of a binary body, as Node's `res.end()` takes them: a Uint8Array as it is (no Buffer made). */
export function toBytes(body: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (body instanceof Uint8Array) return body
  return body instanceof ArrayBuffer
    ? new Uint8Array(body)
    : new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
}

const nativeWrite = ServerResponse.prototype.write
const nativeEnd = ServerResponse.prototype.end

/**
 * A chunk as `res.write()`/`res.end()` should get it: Node takes any Uint8Array, but middleware that
 * wraps them (compression, body loggers) was written for what `res.send()` passes, a Buffer. Wrapped
 * methods get a Buffer view of the same bytes (no copy); the native ones the bytes as they are.
 */
export function chunkFor(res: ServerResponse, bytes: Uint8Array): Uint8Array {
  if ((res.write === nativeWrite && res.end === nativeEnd) || Buffer.isBuffer(bytes)) return bytes
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** Drop Content-Length and Transfer-Encoding from a flat list in one pass (the body's own length is sent). */
function removeFraming(flat: FlatHeaders): void {
  for (let i = flat.length - 2; i >= 0; i -= 2) {
    if (isFramingName(flat[i])) flat.splice(i, 2)
  }
}

/** Send a fixed body with an exact Content-Length (none for null-body statuses; 205 gets 0), never chunked. */
export function endFixed(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  data: string | Uint8Array,
): void {
  // The body is fixed: framing headers copied from a chunked upstream response do not describe it.
  removeFraming(flat)
  if (isNullBodyStatus(status)) {
    writeHead(res, status, statusText, flat)
    res.end()
  } else {
    flat.push('content-length', String(typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength))
    writeHead(res, status, statusText, flat)
    res.end(typeof data === 'string' ? data : chunkFor(res, data))
  }
  drainAfterResponse(req)
}

/** {@link endFixed} for a body read ahead in chunks: written corked (one writev), not copied into one buffer. */
export function endChunks(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  chunks: Uint8Array[],
  total: number,
): void {
  if (chunks.length <= 1 || isNullBodyStatus(status)) {
    const only = chunks.length === 0 ? '' : chunks[0]
    return endFixed(req, res, status, statusText, flat, only)
  }
  removeFraming(flat)
  flat.push('content-length', String(total))
  writeHead(res, status, statusText, flat)
  res.cork()
  for (const chunk of chunks) res.write(chunkFor(res, chunk))
  res.end()
  res.uncork()
  drainAfterResponse(req)
}

/**
 * A bodiless answer: to HEAD, or with a null-body status (no framing headers then). For HEAD, the length
 * of the GET body it replaced (Hono's `new Response(null, res)`) is sent; otherwise the app's own
 * Content-Length, if any, is kept and none is made up. A stream left behind is cancelled so its
 * producer stops.
 */
export function endHead(
  res: ServerResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  length: number | undefined,
  source: ReadableStream | undefined,
): void {
  if (isNullBodyStatus(status)) {
    removeFraming(flat)
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

export function ignore(): void {}
