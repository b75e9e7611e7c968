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
import {
  fallthroughFetch,
  isHonoFetch,
  isUnmatched,
  cannotCheckRoutes,
  routedTarget,
  unmatchedCheck,
} from './fallthrough.js'
import { isHonoApp, isThenable } from '../core/app-kinds.js'
import { badRequest, failed, passOn, someoneBehind, withListen } from './hand-off.js'
import { fromHttp2 } from '../http2/http2-exchange.js'
import { BadRequestError } from '../core/errors.js'
import { noteUnfinishedBody } from '../request/drain.js'
import { bridgeAnswers, createRequest } from '../request/request.js'
import type { ExpressLikeRequest } from '../request/url.js'
import { installGlobals } from './globals.js'
import { PER_OBJECT_SHAPES, settleShapes } from '../core/object-shapes.js'
import { BRIDGE_ENV, IN_FRONT_DOOR, REAL_REQUEST } from '../core/process-shared.js'
import { framesBody, noteReplayLimit, REPLAY_LIMIT } from '../request/body-read.js'
import { writeResponse } from '../response/serializer.js'
import { recordBridge } from './bridge-info.js'
import { reportingBridge } from './on-dispatch.js'
import { expressRoutingOf } from './express-routing.js'
import { noteFellThrough } from './fell-through.js'
import { refuseNodeListener, refuseSameAppInside } from './start-up-checks.js'
import { guardFrontDoorSession } from './front-door-session.js'
import { WRAP_BRIDGE, type AppDispatch, type MakeBridge } from './shadow-hook.js'
import { nameAnsweredRoute, ROUTE_NAMING, type RouteNaming } from '../observability/route-name.js'
import type { HonoRoutes } from '../core/hono-routes.js'

function reportBackgroundError(err: unknown): void {
  // A failed waitUntil() task must not become an unhandled rejection that kills the process.
  process.emitWarning(
    `express-fetch-bridge: a waitUntil() task failed: ${err instanceof Error ? err.stack : String(err)}`,
  )
}

// The bridge keeps no per-request state in ctx, so one object serves every request.
const executionContext: ExecutionContextLike = Object.freeze({
  waitUntil(promise: Promise<unknown>) {
    Promise.resolve(promise).catch(reportBackgroundError)
  },
  passThroughOnException() {},
  props: Object.freeze({}),
}) as ExecutionContextLike

function resolveFetch(
  app: FetchApp,
  fallthrough: boolean,
): (request: Request, env: unknown, ctx: ExecutionContextLike) => unknown {
  if (typeof app === 'function') {
    // `fetchBridge(hono.fetch)` (the @hono/node-server habit): the app behind it cannot be reached,
    // so nothing could fall through. Say so now rather than answer every Express route with a 404.
    if (fallthrough && isHonoFetch(app)) {
      throw new TypeError(
        "fetchBridge: got a Hono app's fetch function; pass the app itself (fetchBridge(app)) so unmatched " +
          "requests fall through to Express, or pass { fallthrough: false } to send Hono's 404 for them",
      )
    }
    return app
  }
  if (fallthrough && isHonoApp(app)) return fallthroughFetch(app)
  if (app !== null && typeof app === 'object' && typeof app.fetch === 'function') return app.fetch.bind(app)
  throw new TypeError('fetchBridge: expected a Hono app, an object with fetch(request, env, ctx), or a function')
}

/**
 * Serve a Fetch-API app (Hono, or anything with `fetch(request, env, ctx)`) from Express, Connect or
 * node:http, or node:http2 (h2 and h2c: `http2.createSecureServer(options, bridge)`). Pass a Hono app itself: `fetchBridge(app.fetch)`
 * throws at start-up unless `fallthrough: false`, since nothing could fall through. Requests the app
 * must not get (a Host no URL can hold, a target with dot segments, backslashes or escaped unreserved
 * characters) are handed on untouched, or answered 400 where nobody else can.
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
  refuseNodeListener(app)
  const opts = resolveOptions(options)
  if (opts.fallback === undefined) return makeBridge(app, options, opts)
  refuseSameAppInside(app, opts.fallback)
  // A bridge for the same app mounted in the fallback after the front door was made: refused at listen().
  const handler = makeBridge(app, options, opts)
  const listen = handler.listen
  handler.listen = function (this: unknown, ...args: unknown[]) {
    refuseSameAppInside(app, opts.fallback)
    return (listen as (...a: unknown[]) => ReturnType<BridgeHandler['listen']>).apply(this, args)
  } as BridgeHandler['listen']
  return handler
}

/**
 * The bridges a shadow trial wraps: made as any bridge over `app`, but for their dispatch (see MakeBridge).
 * One options object is resolved once: its bridges share the resolved `expressRouting`, by which the
 * router holding the trial is found (bridge/express-routing.ts).
 */
const resolvedFor = new WeakMap<object, ResolvedOptions>()
const trialBridge: MakeBridge = (app, options, dispatch) => {
  let opts = resolvedFor.get(options)
  if (opts === undefined) resolvedFor.set(options, (opts = resolveOptions(options)))
  return makeBridge(app, options, opts, dispatch)
}

function makeBridge(
  app: FetchApp,
  options: FetchBridgeOptions<any, any> | undefined,
  opts: ResolvedOptions,
  dispatch?: (fetch: AppDispatch) => AppDispatch,
): BridgeHandler {
  // Only a bridge with onDispatch pays for it: the reporting wrapper is a separate handler.
  if (opts.onDispatch !== undefined) return reportingBridge(app, options!, opts.onDispatch, fetchBridge)
  // Likewise a shadow trial (src/shadow/): it wraps bridges made without it.
  if (opts.shadow !== undefined) return opts.shadow[WRAP_BRIDGE](app, options!, trialBridge)
  const own = resolveFetch(app, opts.fallthrough)
  const fetch = dispatch === undefined ? own : dispatch(own)
  const { origin, keepMountPath, env: envFactory, fallback, drain, overrideGlobalObjects, replayLimit } = opts

  const fallthrough = opts.fallthrough
  // "No Response" is handed on under fallthrough, and always when the dispatch wrapper declined the app's answer.
  const handsOn = fallthrough || dispatch !== undefined
  const unmatched = fallthrough && isHonoApp(app) ? unmatchedCheck(app, opts.honoMiddleware) : undefined
  if (unmatched === undefined && options?.honoMiddleware === 'routes') throw cannotCheckRoutes(fallthrough)
  if (opts.expressRouting !== undefined && !isHonoApp(app)) {
    throw new TypeError('fetchBridge: expressRouting matches Hono routes; the app is not a Hono app')
  }
  const routingOf = opts.expressRouting && expressRoutingOf(app as never, opts.expressRouting, fallback)
  // Requests a Hono route answers take its name where tracers, metrics and logs read one.
  const naming: RouteNaming | undefined = isHonoApp(app)
    ? { hono: app as unknown as HonoRoutes, keepMountPath }
    : undefined
  // At once, not on the first request: code that builds a Request or Response before any request
  // arrives (start-up, a test) gets the same classes the app will.
  if (overrideGlobalObjects) installGlobals()
  // Front-door Hono routes reading a session no middleware loaded get an error saying what to add.
  const frontDoorHono = fallback !== undefined && isHonoApp(app)
  if (frontDoorHono) guardFrontDoorSession()

  // No closures on the synchronous path: respond() is a module function taking the request's parts.
  const handler = withListen(function fetchBridgeMiddleware(
    req: IncomingMessage,
    res: ServerResponse,
    next?: NextFunction,
  ) {
    if (overrideGlobalObjects) installGlobals()

    // Behind Express on Node 20 and 22 every property access to req and res misses V8's inline caches
    // unless the objects are made dictionaries first (core/object-shapes.ts).
    if (PER_OBJECT_SHAPES) settleShapes(req, res)

    // HTTP/2 (node:http2's compatibility objects): made to read as HTTP/1.1 (see http2/http2-exchange.ts).
    if (req.httpVersionMajor === 2) fromHttp2(req, res)

    // Read once, before the bridge adds its own state to req (see framesBody).
    const headers = req.headers
    const method = req.method ?? 'GET'
    // The drain of an unread body must know when the request came (see drain.ts).
    if (framesBody(method, headers)) {
      if (!req.complete) noteUnfinishedBody(req, drain)
      if (replayLimit !== REPLAY_LIMIT) noteReplayLimit(req, replayLimit)
    }

    const routing = routingOf === undefined ? undefined : routingOf(req as ExpressLikeRequest)
    // A request the Hono app has no route for goes on at once, before a Request is built (fallthrough.ts).
    if (unmatched !== undefined && someoneBehind(next, fallback)) {
      const target = routedTarget(req as ExpressLikeRequest, keepMountPath, routing)
      if (target !== undefined && unmatched(method, target)) return passOn(req, res, next, fallback)
    }

    // The lazy Request: what the app gets, unless it asked for the platform's (see below).
    let lazy: Request
    let request: Request
    try {
      request = lazy = createRequest(req, res, origin, keepMountPath, routing, headers, method)
      // Without the global override the app gets what it asked for: a platform Request, which the
      // platform's own Request constructor, clone() and fetch() accept (the lazy one they do not).
      if (!overrideGlobalObjects) request = (lazy as unknown as { [REAL_REQUEST](): Request })[REAL_REQUEST]()
    } catch (err) {
      // A Host or target the app cannot be given as Express routed it (`OPTIONS *`, dot segments, a
      // Host no URL can hold): not the app's. Whoever is behind answers it as without the bridge.
      if (!(err instanceof BadRequestError)) return failed(req, res, next, err)
      if (fallthrough && someoneBehind(next, fallback)) return passOn(req, res, next, fallback)
      return badRequest(res)
    }
    // `incoming` and `outgoing` are the request's own objects: an `env()` result cannot replace them.
    const env: Record<PropertyKey, unknown> =
      envFactory === undefined
        ? { incoming: req, outgoing: res }
        : { ...envFactory(req, res), incoming: req, outgoing: res }
    // Stored, not written in the literal: a literal with computed keys is built by the runtime.
    env[BRIDGE_ENV] = true
    env[ROUTE_NAMING] = naming

    if (frontDoorHono && next === undefined) (req as { [IN_FRONT_DOOR]?: boolean })[IN_FRONT_DOOR] = true
    let result: unknown
    try {
      result = fetch(request, env, executionContext)
    } catch (err) {
      return appFailed(lazy, req, res, next, err)
    }
    if (isThenable(result)) {
      ;(result as Promise<unknown>).then(
        (response) => respond(response, req, res, next, env, handsOn, fallback, naming, lazy),
        (err) => appFailed(lazy, req, res, next, err),
      )
    } else {
      respond(result, req, res, next, env, handsOn, fallback, naming, lazy)
    }
  })
  return recordBridge(handler, { app, fetch, opts, ctx: executionContext, routing: routingOf })
}

function respond(
  response: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction | undefined,
  env: object,
  handsOn: boolean,
  fallback: ResolvedOptions['fallback'],
  naming: RouteNaming | undefined,
  // The lazy Request made for the app: its URL is the path Hono routed on, which names the route.
  request: Request,
): void {
  // The app is done: response-phase code (a session middleware's header hooks) reading req.session
  // is not a Hono route missing its session middleware. Only a front door marks its requests.
  if (fallback !== undefined && (req as { [IN_FRONT_DOOR]?: boolean })[IN_FRONT_DOOR] === true)
    (req as { [IN_FRONT_DOOR]?: boolean })[IN_FRONT_DOOR] = false
  // The handler (or Express middleware run by expressMiddleware()) answered through res itself.
  if (res.headersSent || res.writableEnded) {
    bridgeAnswers(request)
    if (naming !== undefined) nameAnsweredRoute(req, naming, request.url, request.method)
    return
  }
  if (response === undefined || response === null) {
    if (handsOn) return passOn(req, res, next, fallback)
    return appFailed(request, req, res, next, new TypeError('The app returned no Response'))
  }
  // The Hono clone's not-found handler ran and middleware did not turn its answer into another one.
  if (isUnmatched(env, response as Response)) {
    noteFellThrough(req, env)
    return passOn(req, res, next, fallback)
  }
  bridgeAnswers(request)
  if (naming !== undefined) nameAnsweredRoute(req, naming, request.url, request.method)
  let written: void | Promise<void>
  try {
    written = writeResponse(response as Response, req, res)
  } catch (err) {
    return failed(req, res, next, err)
  }
  if (written !== undefined) written.then(undefined, (err: unknown) => failed(req, res, next, err))
}

/** The app threw or rejected: its failure is the answer (`next(err)` or an error page), never a hand-on. */
function appFailed(
  request: Request,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction | undefined,
  err: unknown,
): void {
  bridgeAnswers(request)
  failed(req, res, next, err)
}
