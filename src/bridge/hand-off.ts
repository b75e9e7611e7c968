/**
 * Where a request goes when the bridge does not answer it: the Express chain (`next`), the front-door
 * fallback, or — on a bare node:http server — a final answer like Express's own final handler.
 */

import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { BridgeHandler, FallbackHandler, NextFunction } from './options.js'
import { handOver } from '../request/body-hand-over.js'
import { drainAfterResponse } from '../request/drain.js'
import { IN_FRONT_DOOR, NOBODY_BEHIND } from '../core/process-shared.js'
import { forHttp1Code } from '../http2/http2-express.js'
import { isHttp2Listen, listenHttp2 } from '../http2/http2-listen.js'
import { PER_OBJECT_SHAPES, settleBeforeExpress } from '../core/object-shapes.js'
import { isExpressApp } from '../core/app-kinds.js'

/**
 * Marks a `next` that stands for "nobody behind the bridge" (the `onDispatch` wrapper's on a bare
 * node:http server), so that {@link someoneBehind} answers as if there were no `next` at all.
 */
export function nobodyBehind<T extends NextFunction>(next: T): T {
  return Object.defineProperty(next, NOBODY_BEHIND, { value: true })
}

/** Whether anyone can answer a request the app must not get: Express (`next`) or the fallback. */
export function someoneBehind(next: NextFunction | undefined, fallback: FallbackHandler | undefined): boolean {
  return fallback !== undefined || (next !== undefined && (next as { [NOBODY_BEHIND]?: true })[NOBODY_BEHIND] !== true)
}

/** No route of the app matched: hand the request on untouched (unless the app read part of its body). */
export function passOn(
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction | undefined,
  fallback: FallbackHandler | undefined,
): void {
  const unusable = handOver(req)
  if (unusable !== undefined) {
    // Whoever answers the error, the rest of the body must then leave the connection (bounded), as
    // after the bridge's own answers: else the next request on it waits behind unread bytes.
    res.once('finish', () => drainAfterResponse(req))
    return failed(req, res, next, unusable)
  }
  if (fallback === undefined) {
    if (next !== undefined) next()
    else answer(req, res, undefined)
    return
  }
  // Out of the front door's Hono app: reading req.session is the fallback's business (front-door-session.ts).
  if ((req as { [IN_FRONT_DOOR]?: boolean })[IN_FRONT_DOOR] === true)
    (req as { [IN_FRONT_DOOR]?: boolean })[IN_FRONT_DOOR] = false
  // Express replaces the prototypes of req and res: node:http2's members must survive that.
  if (req.httpVersionMajor === 2) forHttp1Code(req, res)
  // Express is about to replace both prototypes: on Node 20 and 22, see core/object-shapes.ts.
  if (PER_OBJECT_SHAPES && isExpressApp(fallback)) settleBeforeExpress(req, res)
  try {
    if (next === undefined) fallback(req, res)
    else fallback(req, res, next)
  } catch (err) {
    // Express and Connect never throw here; anything else must not crash the server.
    failed(req, res, next, err)
  }
}

/** The app failed: `next(err)`, or a plain error answer; after the headers, cut the connection. */
export function failed(req: IncomingMessage, res: ServerResponse, next: NextFunction | undefined, err: unknown): void {
  if (res.headersSent) {
    // Too late for an error page: cut the connection so the client sees an incomplete response.
    if (!res.writableEnded && !res.destroyed) res.destroy(err instanceof Error ? err : undefined)
    // Still report it: Express error handlers get it with res.headersSent set (as Express does for
    // its own routes, whose final handler then just closes the socket); without Express, log it.
    if (next !== undefined) next(err)
    else logError(err)
    return
  }
  if (next !== undefined) next(err)
  else answer(req, res, err)
}

function logError(err: unknown): void {
  // Nobody else will see this error: log it, as Express's final handler does (quiet under tests).
  if (process.env.NODE_ENV !== 'test') console.error(err instanceof Error ? err.stack : err)
}

/** What Express's final handler would answer: 404 without an error, else the error's 4xx/5xx status. */
function answer(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    if (err !== undefined) res.destroy()
    return
  }
  const status = err === undefined ? 404 : statusOf(err)
  if (status >= 500) logError(err)
  plain(res, status, err === undefined ? `Cannot ${req.method} ${req.url}` : (STATUS_CODES[status] ?? 'Error'))
}

/** A request nobody behind the bridge can take and the app must not get: 400, nothing logged. */
export function badRequest(res: ServerResponse): void {
  plain(res, 400, 'Bad Request')
}

function plain(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function statusOf(err: unknown): number {
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as any)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500
}

/**
 * `handler.listen(...)`: `http.createServer(handler).listen(...)`, like Express's `app.listen`; with
 * `{ http2 }` an HTTP/2 server (http2/http2-listen.ts).
 */
export function withListen(
  handler: (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void,
): BridgeHandler {
  const listen = function listen(...args: unknown[]): Server {
    if (isHttp2Listen(args)) return listenHttp2(handler, args) as unknown as Server
    const server = createServer(handler)
    return server.listen(...(args as Parameters<Server['listen']>))
  }
  return Object.assign(handler, { listen: listen as BridgeHandler['listen'] })
}
