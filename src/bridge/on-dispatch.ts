/**
 * The `onDispatch` option: a bridge that records who served each request. Built only when the option
 * is set, around a bridge made without it, so a bridge without `onDispatch` runs exactly the code it
 * ran before — no listener, closure or allocation per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { bridgeInfo, recordBridge } from './bridge-info.js'
import { failed, nobodyBehind, passOn, withListen } from './hand-off.js'
import { isHonoApp } from '../core/app-kinds.js'
import { answeringRoute, type HonoRoutes } from '../core/hono-routes.js'
import { appTarget } from '../request/url.js'
import { FELL_THROUGH, type FellThrough } from './fell-through.js'
import type {
  BridgeHandler,
  DispatchInfo,
  DispatchReason,
  DispatchSide,
  FallbackHandler,
  FetchApp,
  FetchBridgeOptions,
  NextFunction,
} from './options.js'

const DISPATCH: unique symbol = Symbol('express-fetch-bridge/dispatch')

type Tracked = IncomingMessage & { [DISPATCH]?: Dispatch; [FELL_THROUGH]?: FellThrough }

function reportCallbackError(err: unknown): void {
  process.emitWarning(`express-fetch-bridge: onDispatch threw: ${err instanceof Error ? err.stack : String(err)}`)
}

class Dispatch implements DispatchInfo {
  side: DispatchSide = 'hono'
  status = 0
  duration = 0
  completed = false
  readonly method: string
  #route: string | null | undefined
  /** Set by the shadow option (noteDispatchReason); otherwise read off the side. */
  noted: DispatchReason | undefined

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly start: number,
    readonly hono: HonoRoutes | undefined,
    /** The URL the app saw, kept because Express rewrites `req.url` under a mount path. */
    readonly appUrl: string,
  ) {
    this.method = req.method ?? 'GET'
  }

  get reason(): DispatchReason {
    if (this.noted !== undefined) return this.noted
    if (this.side === 'hono') return 'route'
    return (this.req as Tracked)[FELL_THROUGH]?.reason ?? 'no-route'
  }

  get route(): string | undefined {
    if (this.side !== 'hono') return (this.req as Tracked)[FELL_THROUGH]?.route
    if (this.hono === undefined) return undefined
    if (this.#route === undefined) this.#route = answeringRoute(this.hono, this.method, this.appUrl)?.path ?? null
    return this.#route ?? undefined
  }
}

/** Why the side that answers a request under `onDispatch` does (the shadow option's canary and shadow runs). */
export function noteDispatchReason(req: IncomingMessage, reason: DispatchReason): void {
  const dispatch = (req as Tracked)[DISPATCH]
  if (dispatch !== undefined) dispatch.noted = reason
}

function markFallback(fallback: FallbackHandler): FallbackHandler {
  return function reportedFallback(req: Tracked, res: ServerResponse, next?: NextFunction) {
    const dispatch = req[DISPATCH]
    if (dispatch !== undefined && dispatch.side === 'hono') dispatch.side = 'fallback'
    // Same arity as the bridge would use: an Express app given no `next` runs its own final handler.
    if (next === undefined) fallback(req, res)
    else fallback(req, res, next)
  }
}

/** A bridge over `make(app, options without onDispatch)` that calls `onDispatch` once per request. */
export function reportingBridge(
  app: FetchApp,
  options: FetchBridgeOptions<any, any>,
  onDispatch: (info: DispatchInfo) => void,
  make: (app: FetchApp, options: FetchBridgeOptions<any, any>) => BridgeHandler,
): BridgeHandler {
  const fallback = options.fallback
  const inner = make(app, { ...options, onDispatch: undefined, fallback: fallback && markFallback(fallback) })
  const info = bridgeInfo(inner)!
  const hono = isHonoApp(app) ? app : undefined

  const handler = function reportingBridgeMiddleware(req: Tracked, res: ServerResponse, next?: NextFunction) {
    const appUrl = appTarget(req, info.opts.keepMountPath, info.routing?.(req as { app?: unknown }))
    const dispatch = new Dispatch(req, res, performance.now(), hono, appUrl)
    req[DISPATCH] = dispatch
    res.once('close', () => {
      dispatch.duration = performance.now() - dispatch.start
      dispatch.status = res.statusCode
      dispatch.completed = res.writableFinished
      try {
        onDispatch(dispatch)
      } catch (err) {
        reportCallbackError(err)
      }
    })
    let reportedNext: NextFunction | undefined
    if (next !== undefined) {
      reportedNext = function (err?: unknown) {
        if (err === undefined && dispatch.side === 'hono') dispatch.side = 'express'
        next(err)
      }
    } else if (fallback === undefined) {
      // On a bare node:http server `next()` would be the bridge's own 404: the same answers as without it.
      reportedNext = nobodyBehind(function (err?: unknown) {
        if (err !== undefined) return failed(req, res, undefined, err)
        dispatch.side = 'none'
        passOn(req, res, undefined, undefined)
      })
    }
    inner(req, res, reportedNext)
  }
  return recordBridge(withListen(handler), { ...info, opts: { ...info.opts, fallback } })
}
