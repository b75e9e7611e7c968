import type { IncomingMessage, ServerResponse } from 'node:http'
import { resolveOptions, type ExecutionContextLike, type FetchApp, type FetchBridgeOptions, type NextFunction } from './options.js'
import { fallthroughFetch, isHonoLike, NOT_FOUND } from './fallthrough.js'
import { BadRequestError, createRequest } from './request.js'
import { installGlobalResponse } from './response.js'
import { writeResponse } from './serializer.js'

/** The middleware {@link fetchBridge} returns: Express 4/5, Connect, or a node:http listener. */
export type BridgeHandler = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void

function reportBackgroundError(err: unknown): void {
  // A failed waitUntil() task must not become an unhandled rejection that kills the process.
  process.emitWarning(`express-fetch-bridge: a waitUntil() task failed: ${err instanceof Error ? err.stack : String(err)}`)
}

// The bridge keeps no per-request state in ctx, so one object serves every request.
const executionContext: ExecutionContextLike = Object.freeze({
  waitUntil(promise: Promise<unknown>) {
    Promise.resolve(promise).catch(reportBackgroundError)
  },
  passThroughOnException() {},
  props: Object.freeze({}),
}) as ExecutionContextLike

/** For a plain node:http server (no `next`): answer what Express's final handler would. */
function finalHandler(req: IncomingMessage, res: ServerResponse): NextFunction {
  return (err?: unknown) => {
    if (res.headersSent) {
      if (err !== undefined) res.destroy()
      return
    }
    const status = err === undefined ? 404 : statusOf(err)
    const body = err === undefined ? `Cannot ${req.method} ${req.url}` : status === 400 ? 'Bad Request' : 'Internal Server Error'
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }
}

function statusOf(err: unknown): number {
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as any)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500
}

function resolveFetch(app: FetchApp, fallthrough: boolean): (request: Request, env: unknown, ctx: ExecutionContextLike) => unknown {
  if (typeof app === 'function') return app
  if (fallthrough && isHonoLike(app)) return fallthroughFetch(app)
  if (app !== null && typeof app === 'object' && typeof app.fetch === 'function') return app.fetch.bind(app)
  throw new TypeError('fetchBridge: expected a Hono app, an object with fetch(request, env, ctx), or a function')
}

/**
 * Serve a Fetch-API app (Hono, or anything with `fetch(request, env, ctx)`) from Express, Connect or
 * node:http.
 *
 * @example
 * const app = express()
 * app.use(fetchBridge(hono))
 * app.get('/legacy', (req, res) => res.send('still Express'))
 */
export function fetchBridge<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
  app: FetchApp,
  options?: FetchBridgeOptions<Req, Res>,
): BridgeHandler {
  const opts = resolveOptions(options)
  const fetch = resolveFetch(app, opts.fallthrough)
  const { origin, keepMountPath, env: envFactory } = opts

  return function fetchBridgeMiddleware(req, res, next) {
    if (opts.overrideGlobalObjects) installGlobalResponse()
    const done = next ?? finalHandler(req, res)

    const fail = (err: unknown) => {
      if (res.headersSent) {
        // Too late for an error page: cut the connection so the client sees an incomplete response.
        if (!res.writableEnded) res.destroy(err instanceof Error ? err : undefined)
        return
      }
      done(err)
    }

    const respond = (response: unknown) => {
      if (response === undefined || response === null) {
        if (opts.fallthrough) return done()
        return fail(new TypeError('The app returned no Response'))
      }
      // The Hono clone's not-found handler ran and nothing turned its 404 into something else.
      if ((env as Record<symbol, unknown>)[NOT_FOUND] === true && (response as Response).status === 404) return done()
      let written: void | Promise<void>
      try {
        written = writeResponse(response as Response, req, res)
      } catch (err) {
        return fail(err)
      }
      if (written !== undefined) written.then(undefined, fail)
    }

    let request: Request
    try {
      request = createRequest(req, res, origin, keepMountPath)
    } catch (err) {
      if (err instanceof BadRequestError) return fail(err)
      throw err
    }
    const env: object = envFactory === undefined
      ? { incoming: req, outgoing: res }
      : { incoming: req, outgoing: res, ...envFactory(req, res) }

    let result: unknown
    try {
      result = fetch(request, env, executionContext)
    } catch (err) {
      return fail(err)
    }
    if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
      ;(result as Promise<unknown>).then(respond, fail)
    } else {
      respond(result)
    }
  }
}
