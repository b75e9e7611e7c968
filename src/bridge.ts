import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  resolveOptions,
  type BridgeHandler,
  type ExecutionContextLike,
  type FetchApp,
  type FetchBridgeOptions,
  type NextFunction,
  type ResolvedOptions,
} from './options.js'
import { fallthroughFetch, isHonoLike, NOT_FOUND, withNotFoundHeaders } from './fallthrough.js'
import { failed, passOn, withListen } from './front-door.js'
import { BadRequestError } from './errors.js'
import { createRequest } from './request.js'
import { installGlobalResponse } from './response.js'
import { writeResponse } from './serializer.js'

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
 *
 * @example Front-door mode: Hono routes served straight from node:http, everything else by Express
 * const app = express()
 * app.get('/legacy', (req, res) => res.send('still Express'))
 * fetchBridge(hono, { fallback: app }).listen(3000)
 */
export function fetchBridge<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
  app: FetchApp,
  options?: FetchBridgeOptions<Req, Res>,
): BridgeHandler {
  const opts = resolveOptions(options)
  const fetch = resolveFetch(app, opts.fallthrough)
  const { origin, keepMountPath, env: envFactory, fallback } = opts

  const fallthrough = opts.fallthrough

  // No closures on the synchronous path: respond() is a module function taking the request's parts.
  return withListen(function fetchBridgeMiddleware(req: IncomingMessage, res: ServerResponse, next?: NextFunction) {
    if (opts.overrideGlobalObjects) installGlobalResponse()

    let request: Request
    try {
      request = createRequest(req, res, origin, keepMountPath)
    } catch (err) {
      // `OPTIONS *` names no resource the app could route: not ours, like any unmatched request.
      if (req.url === '*' && fallthrough && err instanceof BadRequestError) return passOn(req, res, next, fallback)
      return failed(req, res, next, err)
    }
    const env: object = envFactory === undefined
      ? { incoming: req, outgoing: res }
      : { incoming: req, outgoing: res, ...envFactory(req, res) }

    let result: unknown
    try {
      result = fetch(request, env, executionContext)
    } catch (err) {
      return failed(req, res, next, err)
    }
    if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
      ;(result as Promise<unknown>).then(
        (response) => respond(response, req, res, next, env, fallthrough, fallback),
        (err) => failed(req, res, next, err),
      )
    } else {
      respond(result, req, res, next, env, fallthrough, fallback)
    }
  })
}

function respond(
  response: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction | undefined,
  env: object,
  fallthrough: boolean,
  fallback: ResolvedOptions['fallback'],
): void {
  if (response === undefined || response === null) {
    if (fallthrough) return passOn(req, res, next, fallback)
    return failed(req, res, next, new TypeError('The app returned no Response'))
  }
  if ((env as Record<symbol, unknown>)[NOT_FOUND] !== undefined) {
    // The Hono clone's not-found handler ran and nothing turned its 404 into something else.
    if ((response as Response).status === 404) return passOn(req, res, next, fallback)
    // Middleware rewrote that 404: answer as with `fallthrough: false` (see fallthrough.ts).
    withNotFoundHeaders(response as Response, env as Record<symbol, unknown>).then(
      (merged) => {
        ;(env as Record<symbol, unknown>)[NOT_FOUND] = undefined
        respond(merged, req, res, next, env, fallthrough, fallback)
      },
      (err) => failed(req, res, next, err),
    )
    return
  }
  let written: void | Promise<void>
  try {
    written = writeResponse(response as Response, req, res)
  } catch (err) {
    return failed(req, res, next, err)
  }
  if (written !== undefined) written.then(undefined, (err: unknown) => failed(req, res, next, err))
}
