/**
 * The `expressRouting` option: which Express settings (`case sensitive routing`, `strict routing`) a
 * bridge matches Hono routes by. They are those of the router the bridge is mounted in (an app's own
 * router, or an `express.Router({ caseSensitive, strict })`), of the front-door `fallback`, or given
 * explicitly; read once per app and cached, never per request.
 */
import { innerOf } from '../core/express-stack.js'
import type { ExpressRoutingSettings } from '../core/express-matching.js'
import type { HonoRoutes } from '../core/hono-routes.js'
import type { TargetRouting } from '../core/routed-target.js'
import { bridgeInfo } from './bridge-info.js'

/**
 * The `expressRouting` option of `fetchBridge`: `true` reads `case sensitive routing` and `strict
 * routing` from Express; an object sets some explicitly (the others are read).
 * @default false
 * @example fetchBridge(hono, { expressRouting: { caseSensitive: true } })
 */
export type ExpressRoutingOption = boolean | { caseSensitive?: boolean | undefined; strict?: boolean | undefined }

/**
 * The option resolved: explicit settings, `undefined` for those read from Express. One object per
 * bridge, which also tells the bridge apart in a router's stack.
 */
export interface ResolvedRouting {
  caseSensitive: boolean | undefined
  strict: boolean | undefined
}

export function resolveExpressRouting(value: unknown): ResolvedRouting | undefined {
  if (value === undefined || value === false) return undefined
  if (value === true) return { caseSensitive: undefined, strict: undefined }
  if (value === null || typeof value !== 'object') {
    throw new TypeError(
      `fetchBridge: expressRouting must be true, false or { caseSensitive?, strict? }, got ${String(value)}`,
    )
  }
  const { caseSensitive, strict } = value as Record<string, unknown>
  for (const [name, v] of [
    ['caseSensitive', caseSensitive],
    ['strict', strict],
  ] as const) {
    if (v !== undefined && typeof v !== 'boolean') {
      throw new TypeError(`fetchBridge: expressRouting.${name} must be true or false, got ${String(v)}`)
    }
  }
  return { caseSensitive: caseSensitive as boolean | undefined, strict: strict as boolean | undefined }
}

type RouterLike = { stack: unknown[]; caseSensitive?: unknown; strict?: unknown }
type AppLike = { lazyrouter?: unknown; _router?: RouterLike; router?: RouterLike; enabled?(name: string): boolean }

const isApp = (x: any): x is AppLike =>
  typeof x === 'function' && typeof x.set === 'function' && typeof x.handle === 'function'
const isRouter = (x: any): x is RouterLike => x != null && Array.isArray(x.stack)

const isExpress4Layer = (layer: any) => layer?.regexp instanceof RegExp && !Array.isArray(layer.matchers)

/** An app's own router (Express 4 creates `_router` lazily, and its `app.router` getter throws). */
function appRouter(app: AppLike): RouterLike | undefined {
  const router = typeof app.lazyrouter === 'function' ? app._router : app.router
  return isRouter(router) ? router : undefined
}

/** The router (of `router` or one nested in it, sub-apps included) whose stack holds the bridge. */
function holder(router: RouterLike, routing: ResolvedRouting, depth = 0): RouterLike | undefined {
  if (depth > 32) return undefined
  for (const layer of router.stack as any[]) {
    if (layer?.route) continue
    if (bridgeInfo(layer.handle)?.opts.expressRouting === routing) return router
    const inner = isRouter(layer.handle)
      ? layer.handle
      : isApp(innerOf(layer)?.app)
        ? appRouter(innerOf(layer)!.app as AppLike)
        : undefined
    const found = inner && holder(inner, routing, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** The settings of what routes the requests around the bridge: an Express app or Router, or neither. */
function settingsOf(source: unknown, routing: ResolvedRouting): ExpressRoutingSettings {
  let router: RouterLike | undefined
  if (isApp(source)) {
    const own = appRouter(source)
    router = (own && holder(own, routing)) ?? own
    if (router === undefined) {
      return {
        caseSensitive: source.enabled?.('case sensitive routing') === true,
        strict: source.enabled?.('strict routing') === true,
        express4: typeof source.lazyrouter === 'function',
      }
    }
  } else if (isRouter(source)) {
    router = holder(source, routing) ?? source
  }
  const express4 = (isApp(source) && typeof source.lazyrouter === 'function') || router?.stack.some(isExpress4Layer)
  return { caseSensitive: router?.caseSensitive === true, strict: router?.strict === true, express4 }
}

/**
 * The routing of a bridge over `hono` for a request (`req.app`: the Express app it is in, if any):
 * `fallback`'s settings in front-door mode, else those of the router holding the bridge, with the
 * explicit ones on top. Express's defaults (case-insensitive, not strict) where no Express is seen.
 */
export function expressRoutingOf(
  hono: HonoRoutes,
  routing: ResolvedRouting,
  fallback: unknown,
): (req: { app?: unknown }) => TargetRouting {
  const fixed = (settings: ExpressRoutingSettings): TargetRouting => ({
    hono,
    settings: {
      caseSensitive: routing.caseSensitive ?? settings.caseSensitive,
      strict: routing.strict ?? settings.strict,
      express4: settings.express4,
    },
  })
  const outside = fixed(
    isApp(fallback) || isRouter(fallback) ? settingsOf(fallback, routing) : { caseSensitive: false, strict: false },
  )
  if ((routing.caseSensitive !== undefined && routing.strict !== undefined) || isApp(fallback) || isRouter(fallback)) {
    return () => outside
  }
  const byApp = new WeakMap<object, TargetRouting>()
  return (req) => {
    const app = req.app
    if (!isApp(app)) return outside
    let found = byApp.get(app)
    if (found === undefined) byApp.set(app, (found = fixed(settingsOf(app, routing))))
    return found
  }
}
