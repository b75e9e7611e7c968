/**
 * "No route matched" detection for Hono apps, through Hono's public API only.
 *
 * The bridge dispatches through a private clone of the app made with `app.basePath('/')`: the clone
 * shares the router and route list (routes added later are seen), and its not-found handler marks the
 * request's `env` instead of answering. The user's app is left untouched, so its own `notFound()`
 * handler keeps working for `app.request()` in tests and for `fallthrough: false`.
 */

/** Set on `env` when the clone's not-found handler ran for a request: that request's Context. */
const NOT_FOUND: unique symbol = Symbol('express-fetch-bridge/not-found')
/** Set with it when middleware saw the app's own not-found answer: that answer's status. */
const OWN_STATUS: unique symbol = Symbol('express-fetch-bridge/not-found-status')

import type { HonoAppShape } from '../core/app-kinds.js'
import {
  checkMatches,
  firstSegment,
  firstSegments,
  honoPath,
  isEveryPathMiddleware,
  isMiddleware,
  NO_ROUTE,
  ROUTE_FOR_METHOD,
  routeForPath,
  sharingMatches,
  type HonoRoute,
  type HonoRoutes,
} from '../core/hono-routes.js'
import { isThenable } from '../core/app-kinds.js'
import { recordHandledError } from '../observability/otel.js'
import { nameFailedRoute } from '../observability/route-name.js'
import type { HonoMiddleware } from './options.js'
import { appTarget, isPlainTarget, requestUrl, type ExpressLikeRequest } from '../request/url.js'
import type { TargetRouting } from '../core/routed-target.js'

type Handler = (...args: any[]) => any

type HonoLike = HonoAppShape

interface NotFoundContext {
  env: unknown
  req: { raw: Request; method: string; path: string }
  executionCtx: unknown
  var: Record<string, unknown>
  res: Response
  set(key: string, value: unknown): void
}

/**
 * A Hono app's own `fetch` property passed on its own (`fetchBridge(app.fetch)`): Hono defines it as
 * an arrow function that calls the app's dispatcher (`#dispatch`, `dispatch` before Hono 4.x made it
 * private). Checked once, when the bridge is created.
 */
export function isHonoFetch(fn: Handler): boolean {
  return fn.name === 'fetch' && /this\.#?dispatch\(/.test(Function.prototype.toString.call(fn))
}

/**
 * Whether the app's answer is its not-found answer as middleware left it: the clone's not-found
 * handler ran and the status is still that answer's (middleware that turned it into another answer,
 * such as hono/trailing-slash's 301, is sent instead).
 */
/** The Context the clone's not-found handler ran with for this request, if it ran (see fell-through.ts). */
export function notFoundContext(env: object): unknown {
  return (env as Record<symbol, unknown>)[NOT_FOUND]
}

export function isUnmatched(env: object, response: { status: number }): boolean {
  const mark = env as Record<symbol, unknown>
  return mark[NOT_FOUND] !== undefined && response.status === ((mark[OWN_STATUS] as number | undefined) ?? 404)
}

/**
 * The clone's not-found handler. Middleware around it (`await next()`, then a look at `c.res`) sees
 * what it sees on Hono alone: the app's own notFound answer (hono/method-not-allowed leaves a 410 of
 * it alone), run on a probe, a clone of the app that routes nothing, with this request's variables.
 * Without middleware around it, nobody looks: an empty 404, and the handler (which may log, count or
 * render) does not run for a request that goes on to Express.
 */
async function markNotFound(c: NotFoundContext, probe: HonoLike): Promise<Response> {
  const env = c.env as Record<symbol, unknown> | undefined
  if (env === null || typeof env !== 'object') return new Response(null, { status: 404 })
  env[NOT_FOUND] = c
  if (!matchedRoutesOf(c).some((route) => isMiddleware(route.handler))) return new Response(null, { status: 404 })
  let own: unknown
  try {
    own = await probe.fetch(c.req.raw, env, c.executionCtx)
  } catch {
    own = undefined
  }
  if (own === null || typeof own !== 'object' || typeof (own as Response).status !== 'number') {
    return new Response(null, { status: 404 })
  }
  env[OWN_STATUS] = (own as Response).status
  // Headers middleware set with c.header() before next() join the answer, as they join it on Hono alone.
  void c.res
  return own as Response
}

/**
 * The routes Hono matched for the request of `c` (middleware and handlers, in dispatch order): the
 * match Hono already made (`c.req.matchedRoutes`, every Hono 4), not a second one. Empty if unreadable.
 */
export function matchedRoutesOf(c: unknown): HonoRoute[] {
  try {
    const routes = (c as { req?: { matchedRoutes?: unknown } } | undefined)?.req?.matchedRoutes
    return Array.isArray(routes) ? (routes as HonoRoute[]) : []
  } catch {
    return []
  }
}

/**
 * The probe's one handler: the request's variables (`c.set()` by middleware before the not-found
 * handler ran) carried over, then the app's notFound handler.
 */
async function carry(pc: NotFoundContext, next: () => Promise<void>): Promise<Response> {
  const c = (pc.env as Record<symbol, NotFoundContext>)[NOT_FOUND]
  for (const [key, value] of Object.entries(c.var)) pc.set(key, value)
  await next()
  return pc.res
}
const PROBE_ROUTE = { method: 'ALL', path: '*', handler: carry, basePath: '/' }
// Routes every request to `carry` alone: a clone of the app with this router answers with its notFound handler.
const PROBE_ROUTER = {
  name: 'express-fetch-bridge not-found probe',
  add() {},
  match: () => [[[[carry, PROBE_ROUTE], {}]]],
}

/**
 * The app's error handler, recording on the active span an error it answered (Express's
 * instrumentation records one passed to `next(err)`; one the handler throws on goes to `next(err)`).
 */
function recordingErrors(handler: Handler): Handler {
  return function (this: unknown, err: unknown, c: { env?: unknown; req?: { url?: unknown } }) {
    nameFailedRoute(c?.env, c?.req?.url)
    const answer = handler.call(this, err, c)
    if (isThenable(answer)) return (answer as Promise<unknown>).then((value) => (recordHandledError(err), value))
    recordHandledError(err)
    return answer
  }
}

const clones = new WeakMap<object, Handler>()

/**
 * The fetch function of the app's fall-through clone (one per app, created on first use). The app's
 * `onError()` is wrapped once so error handlers set later reach the clone too.
 */
export function fallthroughFetch(app: HonoLike): Handler {
  let fetch = clones.get(app)
  if (fetch !== undefined) return fetch
  const clone = app.basePath('/')
  clone.router = sharingMatches(app as unknown as HonoRoutes) as unknown as HonoLike['router']
  const probe = app.basePath('/')
  probe.router = PROBE_ROUTER as unknown as HonoLike['router']
  clone.notFound((c: NotFoundContext) => markNotFound(c, probe))
  clone.onError(recordingErrors((clone as unknown as { errorHandler: Handler }).errorHandler))
  const onError = app.onError
  app.onError = function (this: unknown, handler: Handler) {
    clone.onError(recordingErrors(handler))
    probe.onError(handler)
    return onError.call(this, handler)
  }
  const notFound = app.notFound
  app.notFound = function (this: unknown, handler: Handler) {
    probe.notFound(handler)
    return notFound.call(this, handler)
  }
  fetch = clone.fetch
  clones.set(app, fetch)
  return fetch
}

/**
 * The hand-on rule, decided before a Request is built (the app and `env()` never run for a request it
 * hands on, and `next()` is called in the same tick): with `honoMiddleware: 'routes'`, a request to a
 * path the app has no route for (core/hono-routes.ts `routeForPath`, any method); in both settings, a
 * request nothing of the app matches (no route, no middleware, for its method). Read with Hono's own
 * `getPath` and router. Undefined when the app routes on something else (a custom `getPath` may read
 * headers): such an app runs for every request.
 */
export function unmatchedCheck(
  app: HonoLike,
  honoMiddleware: HonoMiddleware,
): ((method: string, target: string) => boolean) | undefined {
  const hono = app as unknown as HonoRoutes
  if (typeof hono.getPath !== 'function' || !isHonosOwnGetPath(app, hono.getPath)) return undefined
  const hasRoute = honoMiddleware === 'routes' ? routeForPath(hono) : undefined
  let counted = -1
  let everyPath = false
  let firsts: Set<string> | undefined
  // The answer depends on the method and target alone until routes are added: most traffic repeats a
  // few targets, and a remembered answer costs one lookup instead of Hono's getPath and router (on
  // Node 24, ~40 ns instead of ~130-170 for a static route). Targets with a query are not kept (they
  // rarely repeat); past TARGETS_KEPT targets for a method, the map starts over.
  const answers = new Map<string, Map<string, boolean>>()
  const decide = (method: string, target: string): boolean => {
    const path = honoPath(hono, target)
    if (hasRoute !== undefined) {
      const found = hasRoute(method, path)
      if (found === NO_ROUTE) return true
      // A route for this very method matched: something of the app matches the request.
      if (found === ROUTE_FOR_METHOD) return false
    }
    if (everyPath) return false
    if (firsts !== undefined && !firsts.has(firstSegment(path))) return true
    return checkMatches(hono, method, path).length === 0
  }
  return (method, target) => {
    const routes = hono.routes
    if (routes.length !== counted) {
      counted = routes.length
      everyPath = routes.some(isEveryPathMiddleware)
      firsts = firstSegments(routes)
      answers.clear()
    }
    if (target.indexOf('?') !== -1) return decide(method, target)
    let known = answers.get(method)
    if (known === undefined) answers.set(method, (known = new Map()))
    let answer = known.get(target)
    if (answer === undefined) {
      answer = decide(method, target)
      if (known.size >= TARGETS_KEPT) known.clear()
      known.set(target, answer)
    }
    return answer
  }
}
const TARGETS_KEPT = 1024

/** Why `honoMiddleware: 'routes'` cannot be honoured for an app: it runs for every request. */
export function cannotCheckRoutes(fallthrough: boolean): TypeError {
  return new TypeError(
    fallthrough
      ? "fetchBridge: honoMiddleware: 'routes' needs a Hono app routing with Hono's own getPath; this app " +
          'runs for every request (drop the option, or pass a Hono app without a custom getPath)'
      : "fetchBridge: honoMiddleware: 'routes' needs fallthrough; with fallthrough: false the app runs for every request",
  )
}

/**
 * The path and query the app would route `req` on, as its Request's URL holds them (a raw or escaped
 * target normalised as the URL parser does); undefined for a target the app must not get.
 */
export function routedTarget(
  req: ExpressLikeRequest,
  keepMountPath: boolean,
  routing?: TargetRouting,
): string | undefined {
  if (req.url?.charCodeAt(0) === 47) {
    const target = appTarget(req, keepMountPath, routing)
    if (isPlainTarget(target)) return target
  }
  try {
    return requestUrl(req, ORIGIN, keepMountPath, routing).slice(ORIGIN.length)
  } catch {
    return undefined
  }
}
const ORIGIN = 'http://h'

/** Whether `getPath` is one of Hono's own (strict or not), read off fresh apps of the same class. */
function isHonosOwnGetPath(app: HonoLike, getPath: unknown): boolean {
  const Hono = (app as unknown as { constructor?: new (options?: object) => { getPath?: unknown } }).constructor
  if (typeof Hono !== 'function') return false
  try {
    return getPath === new Hono().getPath || getPath === new Hono({ strict: false }).getPath
  } catch {
    return false
  }
}
