/**
 * What a read makes of a body's declared length: flowing mode (request-body.ts), and where a
 * whole-body read puts the bytes it takes. A long body of known length is copied, chunk by chunk as
 * it arrives, into one buffer of that length: the socket's buffers are garbage at once instead of all
 * living until the end (then copied in one Buffer.concat): on an 8 MiB upload that cut the server's CPU
 * per request by a third (GC and page faults; docs/performance.md).
 */

import type { IncomingMessage } from 'node:http'

import type { BodyRead } from './body-read.js'

/**
 * The body's length as node:http's parser framed it (Content-Length, not chunked), or -1. From the
 * header list as it came: middleware may rewrite `req.headers` (a proxy helper, a decompressor), never
 * the framing, and a read that stopped at a rewritten length would lose the bytes after it.
 */
export function framedLength(req: IncomingMessage): number {
  const raw = req.rawHeaders
  let length: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.length === 14) {
      if (length === undefined && name.toLowerCase() === 'content-length') length = raw[i + 1]
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      return -1
    }
  }
  if (length === undefined) return -1
  const n = Number(length)
  return Number.isSafeInteger(n) && n >= 0 ? n : -1
}

/**
 * Whether a body of this declared length can be read in flowing mode: known and still arriving. What
 * is already buffered in the request (the first chunk came with the head, and Express ran before the
 * bridge) comes first as 'data' too.
 */
export function canFlow(req: IncomingMessage, declared: number): boolean {
  // Paused explicitly (req.pause() by earlier middleware): a 'data' listener would not resume it.
  return declared > 0 && !req.complete && req.readableEncoding === null && req.readableFlowing !== false
}

/** Below this a body mostly comes in one or two chunks: one is handed over as it is, with no copy at all. */
const COPY_FROM = 64 * 1024

/** Past this the chunks are collected and concatenated at the end, as for a body of unknown length. */
const COPY_UP_TO = 64 * 1024 * 1024

/** The body of a request without one, or already over. */
export const EMPTY = Buffer.alloc(0)

/**
 * When a whole-body read (`read.expected`: its length, -1 if unknown) starts copying into one buffer:
 * the byte count taken. Not before the read passes the replay limit: until then the chunks are kept
 * for a hand-over anyway, and one concat at the end measured cheaper (1 MiB uploads: 0.90x). Not
 * before a quarter of the body came either: the length is only declared, and the buffer it reserves
 * is never more than four times what the client sent (a client declaring 64 MiB and sending 2 bytes
 * reserves nothing).
 */
export function copyFrom(read: BodyRead): number {
  const n = read.expected
  return n > COPY_FROM && n <= COPY_UP_TO && n > read.limit ? Math.max(read.limit + 1, Math.ceil(n / 4)) : Infinity
}

/** Take one chunk of a whole-body read (`read.taken` already counts it). */
export function collect(read: BodyRead, buf: Buffer): void {
  const whole = read.whole
  if (whole === undefined) {
    read.chunks!.push(buf)
    if (read.taken >= read.copyFrom && read.taken <= read.expected) {
      // Past the replay limit nothing keeps the chunks (take() dropped read.kept): copy them over once.
      const into = Buffer.allocUnsafe(read.expected)
      let at = 0
      for (const c of read.chunks!) at += c.copy(into, at)
      read.whole = into
      read.chunks = []
    }
    return
  }
  const at = read.taken - buf.length
  if (read.taken <= whole.length) {
    buf.copy(whole, at)
    return
  }
  // More bytes than declared (only a peer breaking its own framing): a list of chunks again.
  read.whole = undefined
  read.chunks!.push(whole.subarray(0, at), buf)
}

/** The body, once read to its end. */
export function collected(read: BodyRead): Buffer {
  const whole = read.whole
  const chunks = read.chunks!
  read.whole = undefined
  read.chunks = undefined
  if (whole !== undefined) return read.taken === whole.length ? whole : whole.subarray(0, read.taken)
  return chunks.length === 1 ? chunks[0] : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, read.taken)
}

/** A read that failed: let go of what it took. */
export function dropCollected(read: BodyRead): void {
  read.whole = undefined
  read.chunks = undefined
}
