/** Stream bodies: headers flushed at once, chunks pumped with backpressure and batched per event-loop turn. */

import { type IncomingMessage, ServerResponse } from 'node:http'
import { drainAfterResponse } from '../request/drain.js'
import { chunkFor, endChunks, endHead, ignore, isNullBodyStatus } from './fixed-body.js'
import { indexOfHeader, type FlatHeaders } from '../core/headers.js'
import { writeHead } from './outgoing-headers.js'
import { readAhead, type ReadAhead } from './read-ahead.js'

/** Node's `res.flush()` from the compression middleware. */
type FlushableResponse = ServerResponse & { flush?: () => void }
export async function pumpStream(
  req: IncomingMessage,
  res: FlushableResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  stream: ReadableStream<Uint8Array>,
): Promise<void> {
  if (req.method === 'HEAD' || isNullBodyStatus(status)) {
    // Bodiless answer (HEAD, 204, 304…): the stream is cancelled unread.
    endHead(res, status, statusText, flat, undefined, stream)
    drainAfterResponse(req)
    return
  }
  if (res.destroyed) {
    // The client left while the app was working: its 'close' is past, so nothing would stop the producer.
    stream.cancel().catch(ignore)
    return
  }
  const reader = stream.getReader()
  // A Content-Length the app declared for its stream must hold: a short or long body would leave a
  // keep-alive client waiting for bytes, or reading the excess as the next response.
  const remaining = declaredLength(flat)
  const ahead = await readAhead(reader).catch((err) => {
    reader.cancel(err).catch(ignore)
    throw err
  })
  if (ahead.done) {
    // Complete already: one write with an exact Content-Length, like a fixed body.
    if (remaining !== -1 && remaining !== ahead.total) {
      throw new RangeError('The response stream does not match its Content-Length')
    }
    if (res.destroyed) return
    return endChunks(req, res, status, statusText, flat, ahead.chunks, ahead.total)
  }
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
  return pumpChunks(req, res, reader, ahead.chunks, ahead.pending, remaining, batch)
}

/** The body after the head: chunks written as they come, waiting for 'drain' when the socket is full. */
async function pumpChunks(
  req: IncomingMessage,
  res: FlushableResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  held: Uint8Array[],
  pending: ReadAhead['pending'],
  remaining: number,
  batch: WriteBatch,
): Promise<void> {
  let closed = false
  let wake: (() => void) | undefined
  const onClose = () => {
    closed = true
    batch.stop()
    reader.cancel().catch(ignore)
    wake?.()
  }
  res.once('close', onClose)
  try {
    for (const chunk of held) {
      remaining = countDown(remaining, chunk.byteLength)
      res.write(chunkFor(res, chunk))
    }
    held.length = 0 // not kept for the stream's lifetime (an SSE stream can last hours)
    for (;;) {
      const { done, value } = await (pending ?? reader.read())
      pending = undefined
      if (closed) return
      if (done) break
      if (value === undefined || value.byteLength === 0) continue
      remaining = countDown(remaining, value.byteLength)
      batch.start()
      if (res.write(value instanceof Uint8Array ? chunkFor(res, value) : value) || closed) continue
      // Nothing drains a corked socket: send what we have, then wait.
      batch.flush()
      await new Promise<void>((resolve) => {
        wake = resolve
        res.once('drain', resolve)
      })
      // Woken by 'close': the 'drain' that will never come must not keep its listener.
      if (closed) return void res.off('drain', wake!)
      wake = undefined
    }
    if (remaining > 0) throw new RangeError('The response stream ended before its Content-Length')
    batch.stop()
    res.end()
    drainAfterResponse(req)
  } catch (err) {
    batch.stop()
    reader.cancel(err).catch(ignore)
    // Headers are out: the only honest signal left to the client is an incomplete body; the caller
    // cuts the connection and reports the error (next(err) under Express).
    if (!closed) throw err
  } finally {
    res.off('close', onClose)
  }
}

/** The Content-Length the app declared, or -1. */
function declaredLength(flat: FlatHeaders): number {
  const at = indexOfHeader(flat, 'content-length')
  const n = at === -1 ? -1 : Number(flat[at + 1])
  return n >= 0 ? n : -1
}

/** What is left of a declared Content-Length after `n` more bytes (-1: none declared); past it, a RangeError. */
function countDown(remaining: number, n: number): number {
  if (remaining === -1) return -1
  if ((remaining -= n) < 0) throw new RangeError('The response stream produced more bytes than its Content-Length')
  return remaining
}

/**
 * Corks the response's socket until the current microtask queue has drained, so writes issued by its
 * promise jobs (chunks a stream already holds) leave in one writev; `res.flush()` (the compression
 * middleware's) runs once per batch.
 */
class WriteBatch {
  #res: FlushableResponse
  /**
   * What gets corked: the socket itself where there is one. From Node 22, `res.cork()` buffers in the
   * response instead, and a write past its high-water mark returns false although the socket takes
   * everything on uncork, so the 'drain' the pump waits for never comes (a 2 MiB stream hung).
   */
  #corked: { cork(): void; uncork(): void }
  #pending = false
  /** Bumped by flush()/stop(), so a tick scheduled for an earlier batch does nothing. */
  #generation = 0
  // One function per pump, not per batch: queued as a microtask, it queues the uncork as a tick, unless
  // the batch was sent already (a chunk that filled the socket: each 64 KiB chunk of a download).
  #schedule: () => void

  constructor(res: FlushableResponse) {
    this.#res = res
    // Only node:http's own response writes straight to its socket (http2's compat response does not).
    this.#corked = res instanceof ServerResponse && res.socket ? res.socket : res
    this.#schedule = () => {
      if (this.#pending) process.nextTick(WriteBatch.#onTick, this, this.#generation)
    }
  }

  start(): void {
    if (this.#pending) return
    this.#pending = true
    this.#corked.cork()
    // A tick queued from a microtask runs once the whole microtask queue has drained: after every
    // chunk the stream already holds has been read and written, but before any I/O — so a batch
    // costs one writev and an event written alone leaves at once (setImmediate made it wait for
    // every other socket's I/O of the turn).
    queueMicrotask(this.#schedule)
  }

  /** Uncork now and flush the compressor. */
  flush(): void {
    if (!this.#pending) return
    this.#end()
    this.#res.flush?.()
  }

  /** Uncork without flushing (before end(), destroy() or after 'close'). */
  stop(): void {
    if (this.#pending) this.#end()
  }

  #end(): void {
    this.#pending = false
    this.#generation++
    this.#corked.uncork()
  }

  static #onTick(batch: WriteBatch, generation: number): void {
    if (!batch.#pending || generation !== batch.#generation) return
    batch.#end()
    batch.#res.flush?.()
  }
}
