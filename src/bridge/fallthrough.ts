/**
 * "No route matched" detection for Hono apps, through Hono's public API only.
 *
 * The bridge dispatches through a private clone of the app made with `app.basePath('/')`: the clone
 * shares the router and route list (routes added later are seen), and its not-found handler marks the
 * request's `env` instead of answering. The user's app is left untouched, so its own `notFound()`
 * handler keeps working for `app.request()` in tests and for `fallthrough: false`.
 */

/** Set on `env` when the clone's not-found handler ran for a request: that request's Context. */
export const NOT_FOUND: unique symbol = Symbol('express-fetch-bridge/not-found')
/** Set with it: a clone of the app that runs the app's own notFound handler (see withNotFoundHeaders). */
const PROBE: unique symbol = Symbol('express-fetch-bridge/not-found-probe')

import type { HonoAppShape } from '../core/app-kinds.js'
import { honoPath, isMiddleware, routerMatches, type HonoRoutes } from '../core/hono-routes.js'
import { isThenable } from '../core/app-kinds.js'
import { recordHandledError } from '../observability/otel.js'
import { nameFailedRoute } from '../observability/route-name.js'

type Handler = (...args: any[]) => any

type HonoLike = HonoAppShape

interface NotFoundContext {
  env: unknown
  req: { raw: Request }
  executionCtx: unknown
}

/**
 * A Hono app's own `fetch` property passed on its own (`fetchBridge(app.fetch)`): Hono defines it as
 * an arrow function that calls the app's dispatcher (`#dispatch`, `dispatch` before Hono 4.x made it
 * private). Checked once, when the bridge is created.
 */
export function isHonoFetch(fn: Handler): boolean {
  return fn.name === 'fetch' && /this\.#?dispatch\(/.test(Function.prototype.toString.call(fn))
}

/** Whether the clone's not-found handler answered this request and nothing rewrote its 404. */
export function isUnmatched(env: object, response: { status: number }): boolean {
  return (env as Record<symbol, unknown>)[NOT_FOUND] !== undefined && response.status === 404
}

function markNotFound(c: NotFoundContext, probe: HonoLike): Response {
  const env = c.env as Record<symbol, unknown> | undefined
  if (env !== null && typeof env === 'object') {
    env[NOT_FOUND] = c
    env[PROBE] = probe
  }
  // A real (empty) 404 so middleware that inspects c.res after next() keeps working. The app's own
  // notFound handler does not run here: the request may well go on to Express, and that handler may
  // log, count or render.
  return new Response(null, { status: 404 })
}

// Routes nothing: a clone of the app with this router answers every request with its notFound handler.
const NO_ROUTES = { name: 'express-fetch-bridge not-found probe', add() {}, match: () => [[]] }

/**
 * Middleware turned the clone's 404 into another answer (hono/trailing-slash's 301). With
 * `fallthrough: false` that answer would carry the headers of the app's own notFound response (Hono
 * copies c.res's headers into the new one): run that handler now and add the headers it set that the
 * answer lacks. A handler that fails changes nothing.
 */
export async function withNotFoundHeaders(response: Response, env: Record<symbol, unknown>): Promise<Response> {
  const c = env[NOT_FOUND] as NotFoundContext
  const probe = env[PROBE] as HonoLike
  let own: Response
  try {
    own = await probe.fetch(c.req.raw, c.env, c.executionCtx)
  } catch {
    return response
  }
  if (own === null || typeof own !== 'object' || !(own.headers instanceof Headers)) return response
  own.body?.cancel().catch(() => {})
  const merged = new Response(response.body, response)
  for (const [name, value] of own.headers) {
    if (name === 'set-cookie') {
      if (!response.headers.has(name)) merged.headers.append(name, value)
    } else if (!merged.headers.has(name)) {
      merged.headers.set(name, value)
    }
  }
  return merged
}

/**
 * The app's error handler, recording on the active span an error it answered (Express's
 * instrumentation records one passed to `next(err)`; one the handler throws on goes to `next(err)`).
 */
function recordingErrors(handler: Handler): Handler {
  return function (this: unknown, err: unknown, c: { env?: unknown }) {
    nameFailedRoute(c?.env)
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
  const probe = app.basePath('/')
  probe.router = NO_ROUTES as unknown as HonoLike['router']
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
 * "Nothing in the app would run for this request": no route and no middleware of the app matches
 * it, so Hono would only call its not-found handler and the request would be handed on. Decided
 * with Hono's own `getPath` and router, without building a Request (the legacy routes behind the
 * bridge stop paying for one). Undefined when the app routes on something else (a custom `getPath`
 * may read headers). While the app has middleware for every path (`app.use(mw)`), every request runs
 * it and the check answers false without matching.
 */
export function unmatchedCheck(app: HonoLike): ((method: string, target: string) => boolean) | undefined {
  const hono = app as unknown as HonoRoutes
  if (typeof hono.getPath !== 'function' || !isHonosOwnGetPath(app, hono.getPath)) return undefined
  let counted = -1
  let everyPath = false
  let firsts: Set<string> | undefined
  return (method, target) => {
    const routes = hono.routes
    if (routes.length !== counted) {
      counted = routes.length
      everyPath = routes.some((route) => (route.path === '/*' || route.path === '*') && isMiddleware(route.handler))
      firsts = firstSegments(routes)
    }
    if (everyPath) return false
    const path = honoPath(hono, target)
    // Hono's router matches case-sensitively from the first segment: one no route starts with is
    // answered by a Set, not by the router's regexp over every route (3 µs at 2,000 routes).
    if (firsts !== undefined && !firsts.has(firstSegment(path))) return true
    return routerMatches(hono, method, path).length === 0
  }
}

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

const LITERAL = /^[A-Za-z0-9\-._~!$&'()+,;=@]*$/

/** `/api/v1/x` → `api`; `/` → ``. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? path.slice(1) : path.slice(1, end)
}

/** The literal first segments of every route, or undefined when one starts with a parameter, wildcard or pattern. */
function firstSegments(routes: ReadonlyArray<{ path: string }>): Set<string> | undefined {
  const out = new Set<string>()
  for (const route of routes) {
    if (route.path.charCodeAt(0) !== 47) return undefined
    const first = firstSegment(route.path)
    if (!LITERAL.test(first)) return undefined
    out.add(first)
  }
  return out
}
