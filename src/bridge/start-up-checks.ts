/**
 * Mistakes caught when `fetchBridge()` is called (or the front door starts listening) instead of on
 * the first request: the wrong kind of app, a misspelt option (nested ones too, and `shadowTrial()`'s),
 * an origin with a path, the same Hono app both in front of Express and inside it. Each error names
 * the fix. A shadow trial naming a route the app does not have is warned about.
 */
import { isExpressApp } from '../core/app-kinds.js'
import { innerOf, stackOf, type Layer } from '../core/express-stack.js'
import { isMiddleware, type HonoRoutes } from '../core/hono-routes.js'
import { bridgeInfo } from './bridge-info.js'
import type { FetchBridgeOptions } from './options.js'

/**
 * Every option name of an options type, for the run-time check: the compiler checks the list against
 * the type, so a new option fails the typecheck until it is listed and the check never lags behind.
 */
export type OptionNames<T> = { readonly [K in keyof Required<T>]: true }

/** The names of an option's object form (`expressRouting: { caseSensitive }`, `drain: { maxMs }`). */
type NestedNames<T> = OptionNames<Exclude<Extract<NonNullable<T>, object>, (...args: any[]) => unknown>>

/** Options whose value may be a plain object of options of its own (`shadow` is checked by `shadowTrial()`). */
type NestedOption = Exclude<
  {
    [K in keyof FetchBridgeOptions]-?: [NestedNames<FetchBridgeOptions[K]>] extends [never] ? never : K
  }[keyof FetchBridgeOptions],
  'shadow'
>

const OPTION_NAMES: OptionNames<FetchBridgeOptions> = {
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

/** The names inside each nested option, checked like the top-level ones (a new nested option must be listed). */
const NESTED_NAMES: { [K in NestedOption]: NestedNames<FetchBridgeOptions[K]> } = {
  drain: { maxBytes: true, maxMs: true },
  replay: { maxBytes: true },
  expressRouting: { caseSensitive: true, strict: true },
}

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

/** Unknown option names, at the top and inside nested options: a TypeError naming the nearest valid one. */
export function refuseUnknownOptions(options: object): void {
  refuseUnknownKeys('fetchBridge', options, OPTION_NAMES)
  for (const name of Object.keys(NESTED_NAMES) as NestedOption[]) {
    const value = (options as Record<string, unknown>)[name]
    if (value !== null && typeof value === 'object')
      refuseUnknownKeys('fetchBridge', value, NESTED_NAMES[name], `${name}.`)
  }
}

/**
 * The one rule for misspelt option names (also `shadowTrial()`'s): a key of `given` not in `names` is
 * a TypeError from `caller` naming the nearest valid one, or listing them. `path`: where `given` sits
 * (`'expressRouting.'`, `'routes[0].'`), put before the names.
 */
export function refuseUnknownKeys(
  caller: string,
  given: object,
  names: Readonly<Record<string, true>>,
  path = '',
): void {
  for (const key of Object.keys(given)) {
    if (Object.prototype.hasOwnProperty.call(names, key)) continue
    const valid = Object.keys(names)
    const near = nearest(key, valid)
    const where = path === '' ? '' : ` of ${path.replace(/\.$/, '')}`
    throw new TypeError(
      near === undefined
        ? `${caller}: unknown option '${path}${key}'; the options${where} are ${valid.join(', ')}`
        : `${caller}: unknown option '${path}${key}' (did you mean '${path}${near}'?)`,
    )
  }
}

/** The name in `valid` nearest to `given`, if one is near enough to be what was meant. */
function nearest(given: string, valid: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of valid) {
    const d = distance(given.toLowerCase(), name.toLowerCase())
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

const warnedRoutes = new WeakMap<object, Set<string>>()

/**
 * Trial routes (`shadowTrial({ routes: [{ route }] })`) that name no handler route of the Hono app:
 * the rule never applies, so Express answers those requests with nothing shadowed and no canary, and
 * the trial's evidence stays empty. A warning, not an error: routes registered after the bridge is
 * made count (the bridge sees them), so the check runs once the code of the current tick has run.
 * Once per app and route.
 */
export function warnUnknownTrialRoutes(hono: HonoRoutes, rules: ReadonlyArray<{ route: string }>): void {
  setImmediate(() => {
    const known = [...new Set(hono.routes.filter((r) => !isMiddleware(r.handler)).map((r) => r.path))]
    let warned = warnedRoutes.get(hono)
    if (warned === undefined) warnedRoutes.set(hono, (warned = new Set()))
    for (const { route } of rules) {
      if (route === '*' || known.includes(route) || warned.has(route)) continue
      warned.add(route)
      const near = nearest(route, known)
      process.emitWarning(
        `express-fetch-bridge: shadowTrial names the route '${route}', which the Hono app does not have` +
          `${near === undefined ? '' : ` (did you mean '${near}'?)`}: Express answers its requests, ` +
          'none is shadowed or sent to the canary. Name the route as the Hono app registers it (c.req.routePath).',
        { code: 'EXPRESS_FETCH_BRIDGE_UNKNOWN_TRIAL_ROUTE' },
      )
    }
  }).unref()
}
