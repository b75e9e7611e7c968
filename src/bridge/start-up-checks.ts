/**
 * Mistakes caught when `fetchBridge()` is called (or the front door starts listening) instead of on
 * the first request: the wrong kind of app, a misspelt option, an origin with a path, the same Hono
 * app both in front of Express and inside it. Each error names the fix.
 */
import { isExpressApp } from '../core/app-kinds.js'
import { innerOf, stackOf, type Layer } from '../core/express-stack.js'
import { bridgeInfo } from './bridge-info.js'
import type { FetchBridgeOptions } from './options.js'

/**
 * Every option name, checked by the compiler against {@link FetchBridgeOptions}: a new option
 * there fails the typecheck until it is listed here, so the run-time check never lags behind.
 */
const OPTION_NAMES: { [K in keyof Required<FetchBridgeOptions>]: true } = {
  overrideGlobalObjects: true,
  fallthrough: true,
  honoMiddleware: true,
  mountPath: true,
  origin: true,
  env: true,
  fallback: true,
  onDispatch: true,
  drain: true,
  replay: true,
  expressRouting: true,
  shadow: true,
}
const VALID = Object.keys(OPTION_NAMES)

const FRONT_DOOR =
  'to put Hono in front of it, pass it as the fallback (front-door mode): fetchBridge(hono, { fallback: app })'

/** An Express app, Router or Connect app, or a `(req, res[, next])` listener, where the Fetch app belongs. */
export function refuseNodeListener(app: unknown): void {
  if (typeof app !== 'function') return
  const fn = app as (...args: any[]) => unknown
  const kind = isExpressApp(fn)
    ? 'an Express app'
    : isConnectLike(fn)
      ? 'a Connect app or Express Router'
      : isListenerByName(fn)
        ? 'a node:http listener or Express middleware (req, res, next)'
        : undefined
  if (kind === undefined) return
  throw new TypeError(
    `fetchBridge: got ${kind}, not a Fetch app. fetchBridge() takes the Hono app (or any fetch(request, env, ctx)); ${FRONT_DOOR}`,
  )
}

function isConnectLike(fn: (...args: any[]) => unknown): boolean {
  const f = fn as unknown as { use?: unknown; handle?: unknown; stack?: unknown }
  return typeof f.use === 'function' && typeof f.handle === 'function' && Array.isArray(f.stack)
}

/**
 * A function whose parameters read `(req, res)` or `(…, …, next)`. A fetch function's are
 * `(request, env, ctx)`: its arity alone cannot tell them apart, the names written can (minified
 * code has neither, and is let through).
 */
function isListenerByName(fn: (...args: any[]) => unknown): boolean {
  if (fn.length < 2) return false
  let source: string
  try {
    source = Function.prototype.toString.call(fn)
  } catch {
    return false
  }
  const list =
    /^(?:async\s*)?(?:function\s*\*?\s*[\w$]*\s*)?\(([^)]*)\)/.exec(source)?.[1] ??
    /^(?:async\s+)?[\w$]+\s*\(([^)]*)\)/.exec(source)?.[1]
  if (list === undefined) return false
  const names = list.split(',').map((p) => /^\s*([\w$]+)/.exec(p)?.[1])
  return /^_*(?:res|resp|response|reply)$/.test(names[1] ?? '') || /^_*next$/.test(names[2] ?? '')
}

/** Unknown option names: a TypeError naming the nearest valid one. */
export function refuseUnknownOptions(options: object): void {
  for (const key of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(OPTION_NAMES, key)) continue
    const near = nearest(key)
    throw new TypeError(
      near === undefined
        ? `fetchBridge: unknown option '${key}'; the options are ${VALID.join(', ')}`
        : `fetchBridge: unknown option '${key}' (did you mean '${near}'?)`,
    )
  }
}

function nearest(key: string): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of VALID) {
    const d = distance(key.toLowerCase(), name.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [name, d]
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    row = next
  }
  return row[b.length]
}

/** `origin` is an origin: a path, query or credentials would be dropped without a word. */
export function refuseOriginWithPath(given: string, parsed: URL): void {
  if (
    parsed.pathname === '/' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    parsed.username === '' &&
    parsed.password === ''
  )
    return
  const path = parsed.pathname.replace(/\/$/, '')
  throw new TypeError(
    `fetchBridge: origin must be an origin (scheme, host and port only), got '${given}'` +
      (path === ''
        ? ''
        : `; to serve the app under a path, mount the bridge there: app.use('${path}', fetchBridge(hono))`),
  )
}

/**
 * The same app in front of Express and mounted inside its fallback: every request it has no route
 * for would run it (and its middleware) twice. Where the fallback's stack can be read (Express 4/5,
 * Routers, sub-apps, Connect), such a bridge is an error.
 */
export function refuseSameAppInside(app: unknown, fallback: unknown): void {
  if (!mountedIn(stackOf(fallback), app, new Set())) return
  throw new Error(
    'fetchBridge: this Hono app is in front of the fallback app (front-door mode) and also mounted inside it ' +
      '(app.use(fetchBridge(hono))): requests it has no route for would run it, and its middleware, twice. ' +
      'Remove that app.use(fetchBridge(...)) from the fallback app: the front door serves the Hono routes now',
  )
}

function mountedIn(stack: Layer[] | undefined, app: unknown, seen: Set<unknown>): boolean {
  if (stack === undefined || seen.has(stack)) return false
  seen.add(stack)
  for (const layer of stack) {
    const handle = layer?.handle
    const info = bridgeInfo(handle)
    if (info !== undefined) {
      if (info.app === app) return true
      continue
    }
    // Express Routers and sub-apps; a Connect app mounted in a Connect app is its own handle.
    const inner =
      innerOf(layer)?.stack ?? (typeof handle === 'function' && isConnectLike(handle) ? stackOf(handle) : undefined)
    if (mountedIn(inner, app, seen)) return true
  }
  return false
}
