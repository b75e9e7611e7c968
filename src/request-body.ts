import type { IncomingMessage } from 'node:http'

/**
 * Reading a request body from the socket: whole, or as a web stream with backpressure. One reader per
 * request, its state kept on the request (listeners are module functions, no closures), so that a
 * request handed on to the next handler can be checked: {@link handOver}.
 */

/** Whether the request has body framing (GET/HEAD never do, as for a real Request). */
export function hasBody(req: IncomingMessage): boolean {
  const method = req.method
  if (method === 'GET' || method === 'HEAD') return false
  const headers = req.headers
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

export function abortError(message: string): Error {
  return new DOMException(message, 'AbortError')
}

export function bodyAborted(): Error {
  return abortError('The client closed the connection before the body was read')
}

/** The request went on to the next handler while the app was still reading its body. */
function partlyRead(): Error {
  return Object.assign(
    new Error(
      'express-fetch-bridge: the app read part of the request body and then let the request fall through, ' +
        'so the handlers behind the bridge cannot get the whole body. Answer the request in the app, or ' +
        'read the body only in routes that answer.',
    ),
    { status: 500 },
  )
}

/** Bytes the stream buffers before the request is paused (the socket then stops being read). */
const STREAM_BUFFER = 64 * 1024

const READING = 0
const DONE = 1
const FAILED = 2
const STOPPED = 3

const READ = Symbol('fetchBridge.bodyRead')

interface BodyRead {
  state: typeof READING | typeof DONE | typeof FAILED | typeof STOPPED
  /** Bytes taken from the request. */
  taken: number
  /** Whole-body read: chunks so far and the promise's settlers. */
  chunks: Buffer[] | undefined
  resolve: ((body: Buffer) => void) | undefined
  reject: ((err: unknown) => void) | undefined
  /** Stream read: where the chunks go. */
  controller: ReadableStreamDefaultController<Uint8Array> | undefined
}

type ReadingRequest = IncomingMessage & { [READ]?: BodyRead }

const EMPTY = Buffer.alloc(0)

function onData(this: ReadingRequest, chunk: Buffer | string): void {
  const read = this[READ]!
  // After req.setEncoding() chunks are text: encode them back (exact for every byte-exact encoding,
  // and for valid UTF-8 text; the decoder already replaced invalid UTF-8 sequences).
  const buf = typeof chunk === 'string' ? Buffer.from(chunk, this.readableEncoding ?? 'utf8') : chunk
  read.taken += buf.length
  const controller = read.controller
  if (controller === undefined) {
    read.chunks!.push(buf)
    return
  }
  controller.enqueue(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength))
  if (controller.desiredSize! <= -STREAM_BUFFER) this.pause()
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
  detach(req)
  // A closed stream no longer emits 'data': read() hands the buffered chunks over directly.
  let chunk: Buffer | string | null
  while ((chunk = req.read()) !== null) onData.call(req, chunk)
  settle(req, undefined)
}

function detach(req: ReadingRequest): void {
  req.off('data', onData)
  req.off('end', onEnd)
  req.off('error', onError)
  req.off('close', onClose)
}

function settle(req: ReadingRequest, err: unknown): void {
  const read = req[READ]
  if (read === undefined || read.state !== READING) return
  read.state = err === undefined ? DONE : FAILED
  detach(req)
  finish(read, err)
}

function finish(read: BodyRead, err: unknown): void {
  const controller = read.controller
  if (controller !== undefined) {
    if (err === undefined) controller.close()
    else controller.error(err)
    return
  }
  const chunks = read.chunks!
  read.chunks = undefined
  if (err !== undefined) read.reject!(err)
  else read.resolve!(chunks.length === 1 ? chunks[0] : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, read.taken))
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
  req.on('data', onData)
  req.on('end', onEnd)
  req.on('error', onError)
  req.on('close', onClose)
  // Also undoes a pause() by earlier middleware, under which 'data' listeners get nothing.
  req.resume()
}

function newRead(controller: ReadableStreamDefaultController<Uint8Array> | undefined): BodyRead {
  return { state: READING, taken: 0, chunks: controller === undefined ? [] : undefined, resolve: undefined, reject: undefined, controller }
}

/** Read the whole body from the socket. Rejects if the client goes away before it is complete. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(EMPTY)
  return new Promise<Buffer>((resolve, reject) => {
    const read = newRead(undefined)
    read.resolve = resolve
    read.reject = reject
    start(req, read)
  })
}

/**
 * The request body as a web stream that pulls from the socket (backpressure through pause/resume).
 * Nothing is read before the first pull: building the stream (`request.body`) leaves the request as
 * it is, for the handlers behind the bridge.
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  const r = req as ReadingRequest
  // This stream's reader (an earlier bridge in the chain may have left its own on the request).
  let read: BodyRead | undefined
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (read === undefined) start(r, (read = newRead(controller)))
        else if (read.state === READING) r.resume()
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
  detach(req)
  if (read.taken === 0) {
    // As if never read: the next 'data' listener or pipe() starts the flow again.
    req.pause()
    ;(req as { readableFlowing: boolean | null }).readableFlowing = null
  } else {
    // Keep the connection usable: discard the rest instead of destroying the socket.
    req.resume()
  }
}

/**
 * Called before the request goes on to `next()` or the fallback. Returns undefined when it can go:
 * the app did not take any of its body (the handlers behind get every byte), or read it to the end
 * (they find it consumed, as after an Express middleware that read it). Returns the error to report
 * when the app took part of the body; a read still waiting is ended with that error.
 */
export function handOver(req: IncomingMessage): Error | undefined {
  const read = (req as ReadingRequest)[READ]
  if (read === undefined || read.state === DONE || read.state === FAILED) return undefined
  const err = read.taken === 0 ? undefined : partlyRead()
  if (read.state === READING) {
    read.state = FAILED
    release(req as ReadingRequest, read)
    finish(read, err ?? abortError('The request was handed on to the next handler'))
  }
  return err
}
