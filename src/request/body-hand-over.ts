/**
 * Handing a request body on: to the handlers behind the bridge when the request falls through
 * ({@link handOver}), to Express middleware run inside the app ({@link lendBody}), to the drain once
 * the response is out ({@link abandonRead}). What the app read is put back, up to {@link REPLAY_LIMIT}.
 */

import type { IncomingMessage } from 'node:http'
import { abortError, FAILED, READ, READING, STOPPED, type BodyRead, type ReadingRequest } from './body-read.js'
import { answered, attach, detach, finish, flowing } from './request-body.js'

/** The app read more of the body than is kept for the handlers behind, then let the request fall through. */
/**
 * Put what the app took back in front of the rest of the body, for whoever reads the request next;
 * false when it is no longer whole (more was taken than is kept, the app stopped part way and the
 * rest was discarded, or the request is over). The next 'data' listener or pipe() starts the flow.
 */
function putBack(req: ReadingRequest, read: BodyRead): boolean {
  flowing(req, null)
  if (read.taken === 0) return true
  const kept = read.kept
  if (kept === undefined || req.readableEnded || req.destroyed) return false
  req.unshift(kept.length === 1 ? kept[0] : Buffer.concat(kept, read.taken))
  return true
}

function notKept(taken: number, limit: number): Error {
  const over = taken > limit
  return Object.assign(
    new Error(
      `express-fetch-bridge: the app read ${taken} bytes of the request body ` +
        (over
          ? `(more than the ${limit} kept for the handlers behind the bridge: the replay option)`
          : 'and stopped, so the rest was discarded') +
        ' and then handed the request on (to the handlers behind the bridge, or to Express middleware ' +
        'inside the app): they cannot get the whole body. Answer the request in the app, or read the ' +
        'body only in routes that answer.',
    ),
    { status: over ? 413 : 500 },
  )
}

/**
 * The response is out and the app left a body read unfinished: stop it (its stream errors), so the
 * bounded drain can take the rest ('readable' listeners would keep the request from flowing).
 */
export function abandonRead(req: IncomingMessage): void {
  const r = req as ReadingRequest
  const read = r[READ]
  if (read === undefined || read.state !== READING) return
  read.state = STOPPED
  read.kept = undefined
  detach(r, read)
  finish(read, abortError('The response was sent before the request body was read'))
}

/**
 * Called before the request goes on to `next()` or the fallback. Returns undefined when it can go:
 * the app took none of its body, or what it took is put back in front of the rest (up to
 * {@link REPLAY_LIMIT}), so the handlers behind get every byte as if the app had not read it. Returns
 * the error to report when that cannot be (more was read than is kept, or the read failed part way);
 * a read still waiting is ended.
 */
export function handOver(req: IncomingMessage): Error | undefined {
  const r = req as ReadingRequest
  const read = r[READ]
  if (read === undefined || read.state === FAILED) return undefined
  r[READ] = undefined
  if (read.state === READING) {
    read.state = FAILED
    detach(r, read)
    finish(read, abortError('The request was handed on to the next handler'))
  }
  if (!putBack(r, read)) {
    // Not whole: the request goes on only to report this error, so nothing holds its 'end' any more
    // (an error handler, or the front door's own answer, must not wait for it forever).
    if (read.hold !== undefined) answered(r, read.hold)
    return notKept(read.taken, read.limit)
  }
  if (read.taken > 0) {
    // The handlers behind own the body now: nothing is held for the app, and its 'end' is theirs.
    read.kept = undefined
    if (read.hold !== undefined) read.hold.read = undefined
  }
  return undefined
}

/** A body the app had started reading, lent to Express middleware run inside it (`expressMiddleware`). */
export interface BodyLoan {
  read: BodyRead
  /** What the app took could not be put back: a middleware that reads the body would get it short. */
  short: boolean
  reading: boolean
}

/**
 * Before Express middleware runs inside the app on a request whose body the app started reading (a
 * `bodyLimit()` counting a chunked upload): stop the app's read and put what it took back, so a body
 * parser or multer in the chain gets every byte. {@link takeBack} after the chain.
 */
export function lendBody(req: IncomingMessage): BodyLoan | undefined {
  const r = req as ReadingRequest
  const read = r[READ]
  if (read === undefined || read.state === FAILED || read.state === STOPPED) return undefined
  const reading = read.state === READING
  if (reading) detach(r, read)
  r[READ] = undefined
  return { read, short: !putBack(r, read), reading }
}

/**
 * After the chain: if it read the body (`consumed`), the app's read is over (the caller gives the app
 * the parsed body instead), or an error when the body it read was short; if not, the bytes put back
 * are taken again and the app's read goes on where it was.
 */
export function takeBack(req: IncomingMessage, loan: BodyLoan, consumed: boolean): Error | undefined {
  const r = req as ReadingRequest
  const read = loan.read
  if (consumed) {
    if (loan.reading) {
      read.state = FAILED
      finish(read, abortError('Express middleware read the request body'))
    }
    return loan.short ? notKept(read.taken, read.limit) : undefined
  }
  // Take the bytes put back out again: the app already has them.
  if (read.taken > 0 && !loan.short) req.read(read.taken)
  r[READ] = read
  if (loan.reading) {
    // Paused mode from here on: what the chain left in the request is read exactly, never past its end.
    read.expected = -1
    attach(r, read)
  }
  return undefined
}
