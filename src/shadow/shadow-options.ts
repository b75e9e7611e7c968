/** The options of `shadowTrial()`: types, defaults and validation, resolved once per trial. */
import type { IncomingMessage } from 'node:http'
import type { ShadowResult } from './shadow-result.js'
import { pathMatcher } from './json-diff.js'
import { refuseUnknownTrialOptions } from './shadow-option-names.js'

/**
 * One route under trial: a Hono route pattern and, optionally, its canary share.
 * @example { route: '/users/:id', canary: 10, canaryKey: (req) => req.headers['x-user-id'] as string }
 */
export interface ShadowRouteRule {
  /** The Hono route pattern as registered (`'/users/:id'`, as `c.req.routePath` names it), or `'*'` for every Hono route. */
  route: string
  /**
   * Methods shadowed. Requests of the route with other methods are answered by Express (or the canary)
   * and not shadowed (counted as `unsafe-method`): unsafe methods (POST, PUT, PATCH, DELETE…) must be
   * named here, since the Hono twin would run their writes a second time (it can check `c.env.shadow`).
   * @default ['GET', 'HEAD', 'OPTIONS']
   * @example ['GET', 'HEAD', 'POST']
   */
  methods?: string[] | undefined
  /**
   * Run the Hono twin on the requests Express answers (those outside the canary share).
   * @default true
   */
  shadow?: boolean | undefined
  /**
   * Percentage (0–100) of the route's requests answered by Hono instead of Express. For safe methods a
   * Hono answer that is a 5xx or throws, before any byte is sent, falls back to Express.
   * @default 0
   * @example 10
   */
  canary?: number | undefined
  /**
   * What makes the canary sticky: requests with the same key are always answered by the same side
   * (a session id, a user id, a cookie). Without it (or when it returns undefined), each request is drawn at random.
   * @default undefined
   * @example (req) => req.headers['x-user-id'] as string | undefined
   */
  canaryKey?: ((req: IncomingMessage) => string | undefined) | undefined
  /**
   * Fields left out of this route's comparisons: JSON paths (`'$.meta.generatedAt'`, `'$.items[*].id'`,
   * `'$..updatedAt'` at any depth) and header names (`'header:x-build'`).
   * @default []
   * @example ['$.generatedAt', 'header:x-cache']
   */
  ignore?: string[] | undefined
  /**
   * Called on each side's parsed JSON body (or text) before comparing; return the value to compare.
   * @default undefined
   * @example (body) => ({ ...body, items: [...body.items].sort((a, b) => a.id - b.id) })
   */
  normalize?: ((body: any, side: 'express' | 'hono') => unknown) | undefined
}

/** Options of `shadowTrial()`. */
export interface ShadowTrialOptions {
  /**
   * The routes under trial: rules by Hono route pattern, or `'all'` (every Hono route; safe methods
   * shadowed, no canary). Express answers their requests, except a canary share: each must still have
   * its Express route behind the bridge (use `'all'` only when every Hono route replaces one).
   * @example [{ route: '/users/:id' }, { route: '/orders', methods: ['POST'], canary: 5 }]
   */
  routes: 'all' | ShadowRouteRule[]
  /**
   * Share (0–1) of the requests Express answers on a trial route that are shadowed.
   * @default 1
   */
  sampleRate?: number | undefined
  /**
   * Shadow runs at once (from Express's answer being captured to the twin's end); more are skipped and counted as `busy`.
   * @default 16
   */
  maxConcurrent?: number | undefined
  /**
   * Milliseconds a Hono twin may take (its answer and body); then it is a mismatch (`error: timeout`) and its request is aborted.
   * @default 5000
   */
  timeoutMs?: number | undefined
  /**
   * Request bodies up to this many bytes are copied for the twin; larger ones are skipped and counted.
   * @default 1048576
   */
  maxRequestBodyBytes?: number | undefined
  /**
   * Each side's response body is captured up to this many bytes (decoded); larger ones are skipped and counted.
   * @default 1048576
   */
  maxResponseBytes?: number | undefined
  /**
   * Headers never compared. Replaces the default list; extend it with `[...DEFAULT_IGNORED_HEADERS, 'x-build']`.
   * @default DEFAULT_IGNORED_HEADERS (Date, ETag, Last-Modified, request ids, trace context, framing, Server, X-Powered-By…)
   */
  ignoreHeaders?: string[] | undefined
  /**
   * Noise detection: on a share of the compared requests (and each route's first ones) the twin runs
   * twice, `gapMs` apart; fields that differ between its two runs are noise, not mismatches. `false` turns it off.
   * @default { sampleRate: 0.1, first: 5, gapMs: 5 }
   */
  noise?:
    { sampleRate?: number | undefined; first?: number | undefined; gapMs?: number | undefined } | false | undefined
  /**
   * Matched samples after which a route with no unexplained difference is `'ready'` to switch.
   * @default 100
   */
  readyAfter?: number | undefined
  /**
   * Called once per trial request that was compared or skipped (not for `sampled-out`). Errors it throws are reported as warnings.
   * @default undefined
   * @example (result) => { if (result.outcome === 'mismatch') logger.warn(result.summary) }
   */
  onResult?: ((result: ShadowResult) => void) | undefined
}

/** Headers the comparison leaves out unless `ignoreHeaders` says otherwise: they differ per response, or belong to the transport. */
export const DEFAULT_IGNORED_HEADERS: readonly string[] = Object.freeze([
  'date',
  'etag',
  'last-modified',
  'expires',
  'age',
  'server',
  'x-powered-by',
  'x-response-time',
  'x-request-id',
  'x-correlation-id',
  'request-id',
  'traceparent',
  'tracestate',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'content-encoding',
  'vary',
])

export const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS']

export interface ResolvedRule {
  route: string
  methods: Set<string>
  shadow: boolean
  /** Canary share in hundredths of a percent (0–10000). */
  canary: number
  canaryKey: ((req: IncomingMessage) => string | undefined) | undefined
  ignored: ((path: string) => boolean) | undefined
  normalize: ShadowRouteRule['normalize']
}

export interface ResolvedTrial {
  rules: ResolvedRule[]
  sampleRate: number
  maxConcurrent: number
  timeoutMs: number
  maxRequestBodyBytes: number
  maxResponseBytes: number
  ignoreHeaders: Set<string>
  noise: { sampleRate: number; first: number; gapMs: number } | undefined
  readyAfter: number
  onResult: ShadowTrialOptions['onResult']
}

const fail = (message: string): never => {
  throw new TypeError(`shadowTrial: ${message}`)
}

function number(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !(value >= min && value <= max))
    fail(`${name} must be a number from ${min} to ${max}, got ${String(value)}`)
  return value as number
}

function rule(raw: ShadowRouteRule, i: number): ResolvedRule {
  if (raw === null || typeof raw !== 'object') fail(`routes[${i}] must be { route, methods?, canary?, … }`)
  if (typeof raw.route !== 'string' || (raw.route !== '*' && !raw.route.startsWith('/'))) {
    fail(`routes[${i}].route must be a Hono route pattern ('/users/:id') or '*', got ${String(raw.route)}`)
  }
  const methods = raw.methods ?? SAFE_METHODS
  if (!Array.isArray(methods) || methods.some((m) => typeof m !== 'string'))
    fail(`routes[${i}].methods must be an array of method names`)
  for (const name of ['canaryKey', 'normalize'] as const) {
    if (raw[name] !== undefined && typeof raw[name] !== 'function') fail(`routes[${i}].${name} must be a function`)
  }
  if (raw.ignore !== undefined && (!Array.isArray(raw.ignore) || raw.ignore.some((p) => typeof p !== 'string'))) {
    fail(`routes[${i}].ignore must be an array of JSON paths or 'header:<name>'`)
  }
  return {
    route: raw.route,
    methods: new Set(methods.map((m) => m.toUpperCase())),
    shadow: raw.shadow ?? true,
    canary: Math.round(number(raw.canary, `routes[${i}].canary`, 0, 0, 100) * 100),
    canaryKey: raw.canaryKey,
    ignored: pathMatcher(raw.ignore ?? []),
    normalize: raw.normalize,
  }
}

export function resolveTrial(options: ShadowTrialOptions): ResolvedTrial {
  if (options === null || typeof options !== 'object') fail('options must be an object with routes')
  refuseUnknownTrialOptions(options)
  const { routes } = options
  if (routes !== 'all' && !Array.isArray(routes)) fail("routes must be 'all' or an array of { route } rules")
  if (options.onResult !== undefined && typeof options.onResult !== 'function') fail('onResult must be a function')
  const ignored = options.ignoreHeaders ?? DEFAULT_IGNORED_HEADERS
  if (!Array.isArray(ignored)) fail('ignoreHeaders must be an array of header names')
  const noise = options.noise
  if (noise !== undefined && noise !== false && (noise === null || typeof noise !== 'object'))
    fail('noise must be an object or false')
  const bytes = 2 ** 31
  return {
    rules: routes === 'all' ? [rule({ route: '*' }, 0)] : routes.map(rule),
    sampleRate: number(options.sampleRate, 'sampleRate', 1, 0, 1),
    maxConcurrent: Math.floor(number(options.maxConcurrent, 'maxConcurrent', 16, 1, 1e6)),
    timeoutMs: number(options.timeoutMs, 'timeoutMs', 5000, 1, 2 ** 31 - 1),
    maxRequestBodyBytes: number(options.maxRequestBodyBytes, 'maxRequestBodyBytes', 1024 * 1024, 0, bytes),
    maxResponseBytes: number(options.maxResponseBytes, 'maxResponseBytes', 1024 * 1024, 0, bytes),
    ignoreHeaders: new Set(ignored.map((h) => String(h).toLowerCase())),
    noise:
      noise === false
        ? undefined
        : {
            sampleRate: number(noise?.sampleRate, 'noise.sampleRate', 0.1, 0, 1),
            first: number(noise?.first, 'noise.first', 5, 0, 1e9),
            gapMs: number(noise?.gapMs, 'noise.gapMs', 5, 0, 60_000),
          },
    readyAfter: number(options.readyAfter, 'readyAfter', 100, 1, 1e12),
    onResult: options.onResult,
  }
}

/** The first rule naming this route pattern (or `'*'`). */
export function ruleFor(rules: ResolvedRule[], route: string): ResolvedRule | undefined {
  for (const r of rules) if (r.route === route || r.route === '*') return r
  return undefined
}
