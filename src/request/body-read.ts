/**
 * A request body's read, as state on the request: the states, the replay limit, and the checks other
 * folders make (body framing). Reading it: request-body.ts; handing it on: body-hand-over.ts.
 */

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'

/** Whether the request has body framing (GET/HEAD never do, as for a real Request). */
export function hasBody(req: IncomingMessage): boolean {
  const method = req.method
  // Before the headers: reading req.headers is a getter call, not a field load.
  if (method === 'GET' || method === 'HEAD') return false
  return framesBody(method, req.headers)
}

/**
 * {@link hasBody} for headers already read: the bridge reads `req.headers` once per request, before it
 * adds its own state to the request (each addition is another shape for the getter's inline cache to
 * meet; past four of them every later read of `req.headers`, the app's included, takes the slow path).
 */
export function framesBody(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method === 'GET' || method === 'HEAD') return false
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  )
}

export function abortError(message: string): Error {
  return new DOMException(message, 'AbortError')
}

export const READING = 0
export const DONE = 1
export const FAILED = 2
export const STOPPED = 3

export const READ = Symbol('express-fetch-bridge/body-read')

/**
 * What the app read is kept, up to this many bytes, for the handlers behind the bridge: a Hono
 * middleware that reads every body (`bodyLimit()` counting a chunked upload) and then lets the
 * request fall through must not leave Express's parsers or multer an empty or cut body.
 */
export const REPLAY_LIMIT = 4 * 1024 * 1024

export const LIMIT = Symbol('express-fetch-bridge/replay-limit')

/** A bridge with another `replay.maxBytes` notes it on each request with a body (nothing otherwise). */
export function noteReplayLimit(req: IncomingMessage, limit: number): void {
  ;(req as ReadingRequest)[LIMIT] = limit
}

export interface BodyRead {
  state: typeof READING | typeof DONE | typeof FAILED | typeof STOPPED
  /** Bytes taken from the request. */
  taken: number
  /** Whole-body read: chunks so far and the promise's settlers. */
  chunks: Buffer[] | undefined
  /** Whole-body read of a long body: the one buffer the chunks are copied into (body-length.ts). */
  whole: Buffer | undefined
  /** Bytes taken from which the chunks go into `whole`; Infinity: never. */
  copyFrom: number
  resolve: ((body: Buffer) => void) | undefined
  reject: ((err: unknown) => void) | undefined
  /** Stream read: where the chunks go. */
  controller: ReadableStreamDefaultController<Uint8Array> | undefined
  /** Every chunk taken, for a hand-over; undefined once past {@link REPLAY_LIMIT} or discarded. */
  kept: Buffer[] | undefined
  /** The bridge's request: a body read to its end holds back 'end' until the bridge answers (see {@link EndHold}). */
  hold: EndHold | undefined
  /** How much of what is taken is kept. */
  limit: number
  /** The body's Content-Length while it is read with 'data' (see request-body.ts); -1 in paused mode. */
  expected: number
}

/**
 * One per request the bridge gives the app (made with its Request, before any read): while the
 * bridge may still hand the request on, a body read to its last byte holds back 'end', so the bytes
 * can be put back for the handlers behind. Once the bridge answers (writes the app's response, or
 * reports its failure) nothing can be handed on and 'end' comes: at once, or when a read still going
 * ends. Kept apart from the read so that an answer given before the app starts reading counts too.
 */
export interface EndHold {
  answered: boolean
  /** The read under way or done, until it is handed on. */
  read: BodyRead | undefined
}

export type ReadingRequest = IncomingMessage & { [READ]?: BodyRead | undefined; [LIMIT]?: number }

/**
 * Whether the bridge read the body to its end. Node marks the request `complete` only when it emits
 * 'end', which a body read to its last byte holds back until the bridge answers (see {@link EndHold}).
 */
export function readToEnd(req: IncomingMessage): boolean {
  return (req as ReadingRequest)[READ]?.state === DONE
}
