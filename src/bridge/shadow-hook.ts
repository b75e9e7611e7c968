/**
 * The `shadow` option's contract with the bridge. Its value (made by `shadowTrial()`, src/shadow/)
 * wraps a bridge built without it, as `onDispatch` does: a bridge without the option runs none of its
 * code. The migration report reads the same value's per-route evidence through {@link ShadowHook}.
 */
import type { BridgeHandler, ExecutionContextLike, FetchApp, FetchBridgeOptions } from './options.js'
import { SHADOW_WRAP } from '../core/process-shared.js'

/** Registered (core/process-shared.ts), so a bridge of one loaded copy of the package takes a trial made by another. */
export const WRAP_BRIDGE: typeof SHADOW_WRAP = SHADOW_WRAP

/** The function a bridge dispatches each request through (a Hono app's fall-through clone's `fetch`). */
export type AppDispatch = (request: Request, env: any, ctx: ExecutionContextLike) => unknown

/**
 * Builds a bridge for the trial to wrap, by the same rules as any bridge over `app`: every option that
 * describes the app (`expressRouting` and `honoMiddleware` read its routes, tracers get its route names,
 * front-door routes their session guard) keeps reading `app` itself. `dispatch` (the canary's) wraps
 * only the function requests are dispatched through; an answer it turns into `undefined` goes on to
 * Express, whatever `fallthrough` says.
 */
export type MakeBridge = (
  app: FetchApp,
  options: FetchBridgeOptions<any, any>,
  dispatch?: (fetch: AppDispatch) => AppDispatch,
) => BridgeHandler

/** Milliseconds at the 50th and 99th percentile of the recent samples (0 without any). */
export interface DurationPercentiles {
  /** Median, in milliseconds. */
  p50: number
  /** 99th percentile, in milliseconds. */
  p99: number
}

/**
 * Why a request of a trial route was not compared (counted in {@link ShadowRouteStats.skipped}):
 * `not-modified` is a 304 from Express, which answers the client's cache rather than the request.
 */
export type ShadowSkipReason =
  | 'sampled-out'
  | 'busy'
  | 'unsafe-method'
  | 'request-body-too-large'
  | 'request-body-unread'
  | 'response-too-large'
  | 'client-closed'
  | 'not-modified'
  | 'bad-request'

/** One field that differed, and how often (see {@link ShadowRouteStats.differences}). */
export interface ShadowFieldCount {
  /** `status`, `header:<name>`, a JSON path (`$.items[3].price`), `body` or `error`. */
  field: string
  /** Comparisons in which it differed. */
  count: number
  /** Whether it is noise: it also differs between two runs of the Hono route on the same request. */
  noise: boolean
}

/** Per-route aggregates of a trial (one row per method and Hono route pattern), read with `trial.stats()`. */
export interface ShadowRouteStats {
  /** The request method (`'GET'`). */
  method: string
  /** The Hono route pattern, as registered (`'/users/:id'`). */
  route: string
  /** Requests compared (shadow runs finished). */
  samples: number
  /** Comparisons with no difference but noise. */
  matched: number
  /** Comparisons with at least one difference that was not noise when it was seen. */
  mismatched: number
  /** `matched / samples` (0 before the first sample). */
  matchRate: number
  /** Requests not compared, by reason (`sampled-out`, `busy`: over `maxConcurrent`, …). */
  skipped: Partial<Record<ShadowSkipReason, number>>
  /** Fields that differ between two runs of the Hono route itself: ignored in comparisons. */
  noiseFields: string[]
  /** Every field that differed from Express's answer, most frequent first (at most 100 kept). */
  differences: ShadowFieldCount[]
  /** Durations of Express's answers to the compared requests. */
  express: DurationPercentiles
  /** Durations of the Hono shadow runs. */
  hono: DurationPercentiles
  /** Canary traffic: answered by Hono, by Express (outside the share), fallbacks to Express after a 5xx or throw. */
  canary: { hono: number; express: number; fallbacks: number }
  /**
   * `'ready'` once `readyAfter` samples matched and no difference is unexplained (every field that
   * ever differed is noise), `'mismatch'` while some is, else `'collecting'`.
   */
  verdict: 'ready' | 'mismatch' | 'collecting'
}

/** What the `shadow` option takes: made by `shadowTrial()`. */
export interface ShadowHook {
  /** Called once by `fetchBridge`: the bridge to use, built around `make(app, options without shadow)`. */
  [WRAP_BRIDGE](app: FetchApp, options: FetchBridgeOptions<any, any>, make: MakeBridge): BridgeHandler
  /** Per-route aggregates so far (this process). */
  stats(): ShadowRouteStats[]
  /** Whether the trial names this Hono route (its method shadowed, or a canary share). */
  covers(method: string, route: string): boolean
  /** The canary share (%) of a Hono route whose requests the trial holds back for Express; undefined if it names none. */
  canaryShare(route: string): number | undefined
}

export function isShadowHook(value: unknown): value is ShadowHook {
  return value !== null && typeof value === 'object' && typeof (value as ShadowHook)[WRAP_BRIDGE] === 'function'
}
