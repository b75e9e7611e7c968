/**
 * Reading a request body from the socket: whole, or as a web stream with backpressure (handing it on:
 * body-hand-over.ts). One reader per
 * request, its state kept on the request (listeners are module functions, no closures), so that a
 * request handed on to the next handler can be checked: {@link handOver}.
 */

import type { IncomingMessage } from 'node:http'

import {
  abortError,
  DONE,
  FAILED,
  LIMIT,
  READ,
  READING,
  REPLAY_LIMIT,
  STOPPED,
  type BodyRead,
  type EndHold,
  type ReadingRequest,
} from './body-read.js'
import { canFlow, collect, collected, copyFrom, dropCollected, EMPTY, framedLength } from './body-length.js'

function bodyAborted(): Error {
  return abortError('The client closed the connection before the body was read')
}

/** Bytes the stream buffers before the request is paused (the socket then stops being read). */
const STREAM_BUFFER = 64 * 1024

// Paused mode ('readable' + read(n)): reading exactly what is buffered never makes the request emit
// 'end', so until the response is done the bytes taken can still be put back (unshift) for the
// handlers behind the bridge.
function onReadable(this: ReadingRequest): void {
  const read = this[READ]
  if (read === undefined || read.state !== READING) return
  for (;;) {
    const controller = read.controller
    // Backpressure: stop reading; Node then stops reading the socket. The next pull reads on.
    if (controller !== undefined && controller.desiredSize! <= -STREAM_BUFFER) return
    const n = this.readableLength
    if (n === 0) break
    const chunk = this.read(n) as Buffer | string | null
    if (chunk === null) break
    take(this, read, chunk)
  }
  if (this.complete && this.readableLength === 0) settle(this, undefined)
}

function take(req: ReadingRequest, read: BodyRead, chunk: Buffer | string): void {
  // After req.setEncoding() chunks are text: encode them back (exact for every byte-exact encoding,
  // and for valid UTF-8 text; the decoder already replaced invalid UTF-8 sequences).
  const buf = typeof chunk === 'string' ? Buffer.from(chunk, req.readableEncoding ?? 'utf8') : chunk
  read.taken += buf.length
  if (read.kept !== undefined) {
    if (read.taken <= read.limit) read.kept.push(buf)
    else read.kept = undefined
  }
  const controller = read.controller
  if (controller === undefined) collect(read, buf)
  else controller.enqueue(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength))
}

// Flowing mode ('data'), for a body with a Content-Length still to arrive: each chunk is taken as the
// parser pushes it, with none of paused mode's per-chunk cost (a 'readable' tick, and the socket stopped
// and started again whenever a chunk fills the request's buffer). Inside the 'data' of the last byte the
// request is paused, before the parser ends it: 'end' then waits, as in paused mode, and what was taken
// can still be put back. A stream the app stops pulling goes on in paused mode (see toPaused).
function onData(this: ReadingRequest, chunk: Buffer): void {
  const read = this[READ]
  if (read === undefined || read.state !== READING) return
  take(this, read, chunk)
  if (read.taken >= read.expected) {
    // The flow stopped, not pause(): releaseEnd turns it back on (no 'pause'/'resume' events, no
    // resume tick), and putBack leaves the request as never read.
    flowing(this, false)
    settle(this, undefined)
    return
  }
  const controller = read.controller
  if (controller !== undefined && controller.desiredSize! <= -STREAM_BUFFER) toPaused(this, read)
}

/** The app stopped pulling a stream read in flowing mode: stop the flow, read on in paused mode. */
function toPaused(req: ReadingRequest, read: BodyRead): void {
  req.pause()
  req.off('data', onData)
  read.expected = -1
  req.on('readable', onReadable)
}

function onEnd(this: ReadingRequest): void {
  settle(this, undefined)
}

function onError(this: ReadingRequest, err: Error): void {
  if (this.complete && isClientGone(err)) recover(this)
  else settle(this, err)
}

/**
 * Node destroys a request whose client went away with ECONNRESET, also after the whole body arrived:
 * then the bytes that arrived are the body. Any other error (`req.destroy(new Error('Payload too
 * large'))` from the application) is the read's, even on a complete request.
 */
function isClientGone(err: unknown): boolean {
  return err === undefined || err === null || (err as { code?: unknown }).code === 'ECONNRESET'
}

function onClose(this: ReadingRequest): void {
  if (this.readableEnded || this.complete) recover(this)
  else settle(this, bodyAborted())
}

/** A closed request whose body was complete: take what is still buffered in it, then finish. */
function recover(req: ReadingRequest): void {
  const read = req[READ]
  if (read === undefined || read.state !== READING) return
  detach(req, read)
  let chunk: Buffer | string | null
  while ((chunk = req.read()) !== null) take(req, read, chunk)
  settle(req, undefined)
}

/** The reader's listeners: 'data' (flowing mode) or 'readable' (paused mode), and the ends of the request. */
export function attach(req: ReadingRequest, read: BodyRead): void {
  if (read.expected === -1) req.on('readable', onReadable)
  else req.on('data', onData)
  req.on('end', onEnd)
  req.on('error', onError)
  req.on('close', onClose)
}

export function detach(req: ReadingRequest, read: BodyRead): void {
  if (read.expected === -1) req.off('readable', onReadable)
  else req.off('data', onData)
  req.off('end', onEnd)
  req.off('error', onError)
  req.off('close', onClose)
}

function settle(req: ReadingRequest, err: unknown): void {
  const read = req[READ]
  if (read === undefined || read.state !== READING) return
  read.state = err === undefined ? DONE : FAILED
  detach(req, read)
  finish(read, err)
  // Read to its end, but 'end' not emitted yet: it waits while the request may still be handed on,
  // with the bytes put back (see EndHold).
  if (err === undefined) {
    const hold = read.hold
    if (hold === undefined || hold.answered) releaseEnd(req, read)
  }
}

/**
 * The bridge answers the request (see EndHold): a body read to its end may now emit 'end'; one still
 * being read will when it ends.
 */
export function answered(req: IncomingMessage, hold: EndHold): void {
  hold.answered = true
  const read = hold.read
  if (read !== undefined && read.state === DONE) releaseEnd(req, read)
}

/** Let a request read to its end emit 'end' (and close), as after a plain read. */
function releaseEnd(req: IncomingMessage, read: BodyRead): void {
  if (!req.readableEnded && req.readableLength === 0 && !req.destroyed) {
    // A flowing read stopped the flow at its last byte (onData): turning it back on lets the end,
    // pushed now or later, go straight to 'end', with no resume() tick.
    if (read.expected !== -1) flowing(req, true)
    // node:http's parser marks an HTTP/1 request complete as it pushes the body's end: read(0) alone
    // then emits 'end'; resume() would cost a tick and restart the socket's reads for nothing.
    // (HTTP/2's `complete` also covers a closed stream, whose end may not have been pushed.)
    else if (!req.complete || req.httpVersionMajor === 2) req.resume()
    req.read(0)
  }
}

/** Set the request's flow: on, stopped, or null (as never read: the next 'data' listener or pipe() starts it). */
export function flowing(req: IncomingMessage, state: boolean | null): void {
  ;(req as { readableFlowing: boolean | null }).readableFlowing = state
}

export function finish(read: BodyRead, err: unknown): void {
  const controller = read.controller
  if (controller !== undefined) {
    if (err === undefined) controller.close()
    else controller.error(err)
    return
  }
  if (err === undefined) {
    read.resolve!(collected(read))
  } else {
    dropCollected(read)
    read.reject!(err)
  }
}

function start(req: ReadingRequest, read: BodyRead): void {
  req[READ] = read
  if (req.destroyed) {
    // Gone before the first read: no event will come, the complete body (if any) is buffered.
    const errored = (req as { errored?: unknown }).errored
    if (req.complete && isClientGone(errored)) recover(req)
    else settle(req, isClientGone(errored) ? bodyAborted() : errored)
    return
  }
  // A pause() by earlier middleware does not matter: such a request is read in paused mode (canFlow).
  const declared = framedLength(req)
  read.expected = canFlow(req, declared) ? declared : -1
  if (read.chunks !== undefined) read.copyFrom = copyFrom(read)
  attach(req, read)
  // No read now: 'readable' or 'data' come on a later tick (or 'end' for a body already over), so
  // whatever the caller does in this turn (`req.destroy(err)` right after asking) comes first.
}

function newRead(
  req: ReadingRequest,
  controller: ReadableStreamDefaultController<Uint8Array> | undefined,
  hold: EndHold | undefined,
): BodyRead {
  const limit = req[LIMIT] ?? REPLAY_LIMIT
  const read: BodyRead = {
    state: READING,
    taken: 0,
    chunks: controller === undefined ? [] : undefined,
    whole: undefined,
    copyFrom: Infinity,
    resolve: undefined,
    reject: undefined,
    controller,
    kept: limit > 0 ? [] : undefined,
    hold,
    limit,
    expected: -1,
  }
  if (hold !== undefined) hold.read = read
  return read
}

/** Read the whole body from the socket. Rejects if the client goes away before it is complete. */
export function readBody(req: IncomingMessage, hold: EndHold | undefined): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(EMPTY)
  return new Promise<Buffer>((resolve, reject) => {
    const read = newRead(req as ReadingRequest, undefined, hold)
    read.resolve = resolve
    read.reject = reject
    start(req, read)
  })
}

/**
 * The request body as a web stream that pulls from the socket (backpressure: the request is read
 * only while the stream wants more). Nothing is read before the first pull: building the stream
 * (`request.body`) leaves the request as it is, for the handlers behind the bridge.
 */
export function bodyStream(req: IncomingMessage, hold: EndHold | undefined): ReadableStream<Uint8Array> {
  const r = req as ReadingRequest
  // This stream's reader (an earlier bridge in the chain may have left its own on the request).
  let read: BodyRead | undefined
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (read === undefined) start(r, (read = newRead(r, controller, hold)))
        else if (read.state === READING && read.expected === -1) onReadable.call(r)
      },
      cancel() {
        if (read === undefined || read.state !== READING) return
        read.state = STOPPED
        release(r, read)
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  )
}

/** Stop reading: leave an untouched request as it was, or discard the rest of a started body. */
function release(req: ReadingRequest, read: BodyRead): void {
  detach(req, read)
  if (read.taken === 0) {
    flowing(req, null)
  } else {
    // Keep the connection usable: discard the rest instead of destroying the socket.
    read.kept = undefined
    req.resume()
  }
}
