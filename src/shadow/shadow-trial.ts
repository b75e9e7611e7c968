/**
 * `shadowTrial()`: the value of the bridge's `shadow` option. It wraps a bridge made without it and,
 * per request of a trial route, decides who answers (Express, or Hono for the canary share) and
 * whether a shadow run follows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isHonoApp } from '../core/app-kinds.js'
import { answeringRoute, type HonoRoutes } from '../core/hono-routes.js'
import { bridgeInfo, recordBridge } from '../bridge/bridge-info.js'
import { routedTarget } from '../bridge/fallthrough.js'
import { passOn, someoneBehind, withListen } from '../bridge/hand-off.js'
import { warnUnknownTrialRoutes } from '../bridge/start-up-checks.js'
import { noteDispatchReason } from '../bridge/on-dispatch.js'
import type { BridgeHandler, FetchApp, FetchBridgeOptions, NextFunction } from '../bridge/options.js'
import { WRAP_BRIDGE, type MakeBridge, type ShadowHook, type ShadowRouteStats } from '../bridge/shadow-hook.js'
import type { ExpressLikeRequest } from '../request/url.js'
import { fromHttp2 } from '../http2/http2-exchange.js'
import { CANARY_STATS, fallingBack, inCanary } from './canary.js'
import { resolveTrial, ruleFor, SAFE_METHODS, type ResolvedTrial, type ShadowTrialOptions } from './shadow-options.js'
import { startShadow, type ShadowContext } from './shadow-run.js'
import { TrialStats } from './stats.js'

const SAFE = new Set(SAFE_METHODS)

/**
 * A shadow trial: made by {@link shadowTrial}, passed to `fetchBridge(hono, { shadow: trial })`, read
 * with `trial.stats()`. One trial may serve several bridges; its aggregates are per process.
 */
export class ShadowTrial implements ShadowHook {
  readonly #config: ResolvedTrial
  #stats = new TrialStats()
  readonly #slots = { inFlight: 0 }

  /** Use {@link shadowTrial}. */
  constructor(options: ShadowTrialOptions) {
    this.#config = resolveTrial(options)
  }

  /**
   * Per-route aggregates so far, one row per method and Hono route pattern: samples, match rate, noise
   * fields, differences, p50/p99 of both sides, canary counts and the cut-over verdict.
   * @example
   * for (const row of trial.stats()) console.log(row.method, row.route, row.verdict, row.matchRate)
   */
  stats(): ShadowRouteStats[] {
    return [...this.#stats.routes.values()].map((r) => r.snapshot(this.#config.readyAfter))
  }

  /**
   * Whether the trial names this Hono route pattern: shadows its method, or gives it a canary share.
   * @example trial.covers('GET', '/users/:id')
   */
  covers(method: string, route: string): boolean {
    const rule = ruleFor(this.#config.rules, route)
    return rule !== undefined && ((rule.shadow && rule.methods.has(method.toUpperCase())) || rule.canary > 0)
  }

  /** Shadow runs in flight now (at most `maxConcurrent`). */
  get inFlight(): number {
    return this.#slots.inFlight
  }

  /**
   * Forget the aggregates (after fixing a mismatch, to collect evidence afresh).
   * @example trial.reset()
   */
  reset(): void {
    this.#stats = new TrialStats()
  }

  /**
   * Whether the trial holds back this Hono route's requests, whatever their method (Express answers
   * them, but for the canary share): the share in percent (0 for a route only shadowed), or undefined
   * when the trial does not name the route.
   * @example trial.canaryShare('/users/:id') // 10
   */
  canaryShare(route: string): number | undefined {
    const rule = ruleFor(this.#config.rules, route)
    return rule === undefined ? undefined : rule.canary / 100
  }

  /** @internal Called once by `fetchBridge`. */
  [WRAP_BRIDGE](app: FetchApp, options: FetchBridgeOptions<any, any>, make: MakeBridge): BridgeHandler {
    if (!isHonoApp(app))
      throw new TypeError('fetchBridge: the shadow option needs a Hono app (its routes name the trial)')
    const base = { ...options, shadow: undefined }
    const plain = make(app, base)
    const info = bridgeInfo(plain)!
    // The canary's bridge is the same bridge over the same app; only a failed answer to a safe request goes on to Express.
    const guarded = make(app, base, fallingBack)
    const { keepMountPath, fallback } = info.opts
    const routing = info.routing
    const ctx: ShadowContext = {
      trial: this.#config,
      fetch: app.fetch.bind(app),
      origin: info.opts.origin,
      keepMountPath,
      routing,
      env: info.opts.env,
      slots: this.#slots,
    }
    const hono = app as unknown as HonoRoutes
    const rules = this.#config.rules
    warnUnknownTrialRoutes(hono, rules)
    const current = () => this.#stats
    const handler = function shadowTrialBridge(req: IncomingMessage, res: ServerResponse, next?: NextFunction): void {
      if (!someoneBehind(next, fallback)) return plain(req, res, next)
      // HTTP/2 (node:http2's compatibility objects): made to read as HTTP/1.1, as the bridge does (idempotent).
      if (req.httpVersionMajor === 2) fromHttp2(req, res)
      const method = req.method ?? 'GET'
      // Under trial exactly when the bridge would dispatch it to the route: the target it would route on (respelled
      // under expressRouting), the route that would answer it.
      const target = routedTarget(req as ExpressLikeRequest, keepMountPath, routing?.(req as ExpressLikeRequest))
      const route = target === undefined ? undefined : answeringRoute(hono, method, target)?.path
      const rule = route === undefined ? undefined : ruleFor(rules, route)
      if (rule === undefined) return plain(req, res, next)
      const stats = current().route(method, route!)
      if (rule.canary > 0) {
        if (inCanary(rule, req, route!)) {
          stats.canary.hono++
          noteDispatchReason(req, 'canary')
          if (!SAFE.has(method)) return plain(req, res, next)
          ;(req as { [CANARY_STATS]?: unknown })[CANARY_STATS] = stats
          return guarded(req, res, next)
        }
        stats.canary.express++
      }
      noteDispatchReason(req, rule.shadow && rule.methods.has(method) ? 'shadow' : 'holdback')
      if (rule.shadow) startShadow(ctx, rule, stats, req, res)
      passOn(req, res, next, fallback)
    }
    return recordBridge(withListen(handler), { ...info, opts: { ...info.opts, shadow: this } })
  }
}

/**
 * Prove moved routes on live traffic before switching them: for the named Hono routes, Express keeps
 * answering and the Hono route runs as a shadow on a copy of each request (its answer captured,
 * compared with Express's, never sent; `c.env.shadow === true` inside it), and a canary share of
 * their requests can be answered by Hono instead. Pass it as the bridge's `shadow` option; read the
 * results per request with `onResult` and per route with `trial.stats()` (also in `migrationReport()`).
 * The Express routes must stay behind the bridge while a route is under trial.
 * @example
 * const trial = shadowTrial({
 *   routes: [{ route: '/users/:id', ignore: ['$.generatedAt'] }, { route: '/orders', canary: 10 }],
 *   onResult: (r) => { if (r.outcome === 'mismatch') console.warn(r.summary) },
 * })
 * app.use(fetchBridge(hono, { shadow: trial }))
 * app.get('/users/:id', legacyUser) // still answers; the Hono twin is compared with it
 */
export function shadowTrial(options: ShadowTrialOptions): ShadowTrial {
  return new ShadowTrial(options)
}
