/**
 * What kind of thing a value is, decided once for the whole package: an Express app, a Hono app, a
 * promise. Structural (no `instanceof`), so it holds across copies and versions of those packages.
 */

import type { HonoRoutes } from './hono-routes.js'

type Handler = (...args: any[]) => any

/** An Express 4/5 app: a listener with `handle`, `set`, its `settings`, and the `request`/`response` prototypes. */
export interface ExpressAppShape {
  (req: any, res: any, next?: any): void
  handle: Handler
  set: (name: string, value?: unknown) => unknown
  settings: Record<string, unknown>
  request: object
  response: object
}

export function isExpressApp(value: unknown): value is ExpressAppShape {
  if (typeof value !== 'function') return false
  const app = value as unknown as Partial<ExpressAppShape>
  return (
    typeof app.handle === 'function' &&
    typeof app.set === 'function' &&
    typeof app.settings === 'object' &&
    typeof app.request === 'object' &&
    typeof app.response === 'object'
  )
}

/** The public surface of a Hono app the package relies on: dispatch, the not-found and error hooks, the router. */
export interface HonoAppShape extends HonoRoutes {
  fetch: Handler
  basePath(path: string): HonoAppShape
  notFound(handler: Handler): unknown
  onError(handler: Handler): unknown
}

export function isHonoApp(app: unknown): app is HonoAppShape {
  const a = app as Partial<HonoAppShape> | null
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.fetch === 'function' &&
    typeof a.basePath === 'function' &&
    typeof a.notFound === 'function' &&
    typeof a.onError === 'function' &&
    Array.isArray(a.routes) &&
    typeof a.router?.match === 'function'
  )
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function'
}
