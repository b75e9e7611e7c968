import type { IncomingMessage, ServerResponse } from 'node:http'
import { drainAfterResponse } from './drain.js'
import { removeHeader, type FlatHeaders } from './headers.js'
import { writeHead } from './outgoing-headers.js'

/** Answers whose body is known up front: a fixed body with an exact Content-Length, or none at all. */

/** Statuses whose responses end at the header block (RFC 9112 §6.3): no Content-Length, no Transfer-Encoding. */
export function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200)
}

export function toBuffer(body: ArrayBuffer | ArrayBufferView): Buffer {
  return body instanceof ArrayBuffer
    ? Buffer.from(body)
    : Buffer.from(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength)
}

/** Send a fixed body with an exact Content-Length (none for null-body statuses; 205 gets 0), never chunked. */
export function endFixed(req: IncomingMessage, res: ServerResponse, status: number, statusText: string, flat: FlatHeaders, data: string | Buffer): void {
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

/** {@link endFixed} for a body read ahead in chunks: written corked (one writev), not copied into one buffer. */
export function endChunks(req: IncomingMessage, res: ServerResponse, status: number, statusText: string, flat: FlatHeaders, chunks: Uint8Array[], total: number): void {
  if (chunks.length <= 1 || isNullBodyStatus(status)) {
    const only = chunks.length === 0 ? '' : Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength)
    return endFixed(req, res, status, statusText, flat, only)
  }
  removeHeader(flat, 'content-length')
  removeHeader(flat, 'transfer-encoding')
  flat.push('content-length', String(total))
  writeHead(res, status, statusText, flat)
  res.cork()
  for (const chunk of chunks) res.write(chunk)
  res.end()
  res.uncork()
  if (!req.complete) drainAfterResponse(req)
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

export function ignore(): void {}
