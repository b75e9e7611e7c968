/**
 * "No route matched" detection for Hono apps, through Hono's public API only.
 *
 * The bridge dispatches through a private clone of the app made with `app.basePath('/')`: the clone
 * shares the router and route list (routes added later are seen), and its not-found handler marks the
 * request's `env` instead of answering. The user's app is left untouched, so its own `notFound()`
 * handler keeps working for `app.request()` in tests and for `fallthrough: false`.
 */

/** Set on `env` when the clone's not-found handler ran for a request. */
export const NOT_FOUND: unique symbol = Symbol('express-fetch-bridge.notFound')

type Handler = (...args: any[]) => any

/** The public surface of a Hono app this module relies on. */
interface HonoLike {
  fetch: Handler
  basePath(path: string): HonoLike
  notFound(handler: Handler): unknown
  onError(handler: Handler): unknown
  router: unknown
  routes: unknown[]
}

export function isHonoLike(app: unknown): app is HonoLike {
  const a = app as Partial<HonoLike> | null
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.fetch === 'function' &&
    typeof a.basePath === 'function' &&
    typeof a.notFound === 'function' &&
    typeof a.onError === 'function' &&
    Array.isArray(a.routes) &&
    'router' in a
  )
}

/**
 * A Hono app's own `fetch` property passed on its own (`fetchBridge(app.fetch)`): Hono defines it as
 * an arrow function that calls the app's dispatcher (`#dispatch`, `dispatch` before Hono 4.x made it
 * private). Checked once, when the bridge is created.
 */
export function isHonoFetch(fn: Handler): boolean {
  return fn.name === 'fetch' && /this\.#?dispatch\(/.test(Function.prototype.toString.call(fn))
}

function markNotFound(c: { env: unknown }): Response {
  const env = c.env as Record<symbol, unknown> | undefined
  if (env !== null && typeof env === 'object') env[NOT_FOUND] = true
  // A real (empty) 404 so middleware that inspects c.res after next() keeps working.
  return new Response(null, { status: 404 })
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
  clone.notFound(markNotFound)
  const onError = app.onError
  app.onError = function (this: unknown, handler: Handler) {
    clone.onError(handler)
    return onError.call(this, handler)
  }
  fetch = clone.fetch
  clones.set(app, fetch)
  return fetch
}
