/**
 * `migrationReport()`: which routes moved from Express to Hono. Each route's representative paths are
 * dispatched through a model of the server — Express's own layers in stack order, and at each bridge
 * Hono's own router — to see who would answer them.
 */
import { bridgeInfo } from '../bridge/bridge-info.js'
import {
  bridgeEndpoint,
  collectEndpoints,
  prefixMount,
  type Endpoint,
  type ExpressBridge,
} from './migration-express.js'
import { stackOf } from '../core/express-stack.js'
import { formatReport } from './migration-format.js'
import { isHonoApp } from '../core/app-kinds.js'
import type { HonoRoutes as Hono } from '../core/hono-routes.js'
import { expressRoutingOf, resolveExpressRouting, type ExpressRoutingOption } from '../bridge/express-routing.js'
import type { ShadowHook, ShadowRouteStats } from '../bridge/shadow-hook.js'
import { shadowEvidence } from './migration-evidence.js'
import { expressEntries, honoEntries, methodsFor, partlyMoved } from './migration-model.js'

/**
 * Express route: `shadowed` (Hono answers every request it would get: dead code), `partly-shadowed`, `express` (still
 * live), `under-trial` (a shadow trial holds back requests Hono would answer: Express answers them, but for the
 * canary share, and must stay), `unchecked` (a RegExp path: no samples).
 */
export type ExpressRouteStatus = 'shadowed' | 'partly-shadowed' | 'express' | 'under-trial' | 'unchecked'
/**
 * Hono route: `moved` (replaces an Express route), `hono-only`, `unreachable` (Express routes before the bridge, or
 * Hono routes before it, answer all its requests first), `under-trial` (a shadow trial names it: Express answers its
 * requests, but for the canary share), `unchecked`.
 */
export type HonoRouteStatus = 'moved' | 'hono-only' | 'unreachable' | 'under-trial' | 'unchecked'

/** A request a bridge's shadow trial holds back: Express answers it, Hono only its canary share. */
export interface TrialHold {
  /** The Hono route under trial that would answer it at the bridge (`'GET /users/:id'`). */
  honoRoute: string
  /** The route's canary share in percent: requests Hono answers (for GET, HEAD and OPTIONS, Express on a 5xx). */
  canary: number
}

/** One representative request the report tried, and who answers it with the bridge in place. */
export interface SampleResult {
  /** The request method (upper case, e.g. `'GET'`). */
  method: string
  /** The request path as it reaches the server (mount prefixes included), e.g. `'/api/users/1'`. */
  path: string
  /** `'hono'` when the Hono app answers it at a bridge, `'express'` when an Express route does. */
  servedBy: 'hono' | 'express'
  /** The route that answers it: `METHOD /pattern` of the Hono or Express route, or `-` for none. */
  answeredBy: string
  /** Set when a shadow trial holds it back at a bridge (`servedBy` is then `'express'`, but for the canary share). */
  trial?: TrialHold
}

/** One row of `report.express`: an Express route (one per method) and whether Hono took it over. */
export interface ExpressRouteEntry {
  /** The route's method in upper case (`'GET'`), or `'*'` for `app.all()`. */
  method: string
  /** The full path as written, mount paths included (`'/api/users/:id'`); a RegExp path is shown as the RegExp. */
  path: string
  /** Whether Hono now answers its requests: see {@link ExpressRouteStatus}. */
  status: ExpressRouteStatus
  /** The Hono routes (`METHOD /pattern`) answering its requests instead. */
  honoRoutes: string[]
  /**
   * The sample requests that would reach this route without Hono (requests an earlier Express route takes
   * are left out), each with who answers it now. Empty for an `unchecked` route.
   */
  samples: SampleResult[]
}

/** One row of `report.hono`: a Hono route (middleware left out) and whether it answers anything. */
export interface HonoRouteEntry {
  /** The route's method as Hono records it (`'GET'`; `'ALL'` for `hono.all()`). */
  method: string
  /** The route pattern in the Hono app (`'/users/:id{[0-9]+}'`), without the prefix the bridge is mounted at. */
  path: string
  /** Whether it answers requests, and whether it replaces an Express route: see {@link HonoRouteStatus}. */
  status: HonoRouteStatus
  /** The Express routes (`METHOD /path`) that would serve these requests without Hono. */
  expressRoutes: string[]
  /**
   * Mistakes found in the route, e.g. `'repeats the mount path /api: reachable at /api/api/users'` (a
   * bridge mounted at `/api` with `mountPath: 'strip'` gives the app paths without `/api`).
   */
  warnings: string[]
  /**
   * The sample requests this route matches at a bridge, each with who answers it: an Express route before
   * the bridge, an earlier Hono route, or this one. Empty for an `unchecked` route.
   */
  samples: SampleResult[]
}

/** A path some of whose methods moved to Hono while others are still served by Express. */
export interface PartlyMovedPath {
  /** The Express route path (`'/users'`), as in {@link ExpressRouteEntry.path}. */
  path: string
  /** The methods of this path Hono now answers (all or some of their requests), e.g. `['GET']`. */
  hono: string[]
  /** The methods of this path Express still serves, e.g. `['POST']` (`'*'` for an `app.all()` route). */
  express: string[]
}

/** One row of `report.bridges`: a bridge over the Hono app, where the report modelled it. */
export interface BridgeEntry {
  /** Mount path of the bridge ('/' in front-door mode). */
  path: string
  /** The bridge's `mountPath` option: whether the Hono app sees paths without (`'strip'`) or with (`'keep'`) `path`. */
  mountPath: 'strip' | 'keep'
  /** Found in the Express stack (or passed as a front-door bridge) rather than assumed from options. */
  detected: boolean
  /** Whether the bridge matches Hono routes the Express way (its `expressRouting` option). */
  expressRouting: boolean
}

/** `report.summary`: the rows counted by status (the last line of `format()`). */
export interface MigrationSummary {
  /** Express routes listed (one per method). */
  expressRoutes: number
  /** Express routes Hono answers every request of: dead code, safe to delete. */
  shadowed: number
  /** Express routes Hono answers some requests of; the others still reach them. */
  partlyShadowed: number
  /** Express routes Hono takes no request from (status `'express'`): still live. */
  live: number
  /** Express routes still answering requests a shadow trial holds back (status `'under-trial'`): keep them. */
  underTrial: number
  /** Hono routes listed (middleware left out). */
  honoRoutes: number
  /** Hono routes that answer requests an Express route would otherwise serve. */
  moved: number
  /** Hono routes that answer requests no Express route serves: new in Hono. */
  honoOnly: number
  /** Hono routes that answer no request: Express routes before the bridge, or earlier Hono routes, take them all. */
  unreachable: number
  /** Hono routes a shadow trial names (status `'under-trial'`): Express answers their requests, but for the canary. */
  honoUnderTrial: number
  /** Express and Hono routes the report could not check (no sample request could be tried, e.g. a RegExp path). */
  unchecked: number
}

/** Options of {@link migrationReport}, its third argument. */
export interface MigrationReportOptions {
  /**
   * Where the bridge serves the Hono app when it is not in the Express stack (front-door mode, or a
   * bridge mounted elsewhere): a path prefix. A given prefix overrides detection.
   * @default '/' (in front of every Express route)
   */
  prefix?: string | undefined
  /** The bridge's `mountPath` option for that prefix. @default 'strip' */
  mountPath?: 'strip' | 'keep' | undefined
  /**
   * The bridge's `expressRouting` option for that prefix (settings read from `expressApp`).
   * @default false
   */
  expressRouting?: ExpressRoutingOption | undefined
}

/** The report: plain data (what `toJSON()` / `JSON.stringify` give) plus `format()` for a table. */
export class MigrationReport {
  constructor(
    readonly bridges: BridgeEntry[],
    readonly express: ExpressRouteEntry[],
    readonly hono: HonoRouteEntry[],
    readonly partlyMoved: PartlyMovedPath[],
    readonly summary: MigrationSummary,
    /**
     * Shadow and canary evidence per route under a trial (a bridge's `shadow` option), in this process:
     * samples, match rate, noise, durations and the cut-over verdict. Empty without a trial.
     */
    readonly shadow: ShadowRouteStats[] = [],
  ) {}

  /** A readable table. */
  format(): string {
    return formatReport(this)
  }

  toString(): string {
    return this.format()
  }

  toJSON(): Omit<MigrationReport, 'format' | 'toString' | 'toJSON'> {
    const { bridges, express, hono, partlyMoved, summary, shadow } = this
    return { bridges, express, hono, partlyMoved, summary, shadow }
  }
}

/**
 * List every Express route and every Hono route and how they relate: which Express routes a Hono
 * route now shadows (dead code, safe to delete), which are still live or still answer for a route under
 * a shadow trial, which Hono routes are new, and which paths moved only for some methods.
 *
 * `expressApp` is an Express 4 or 5 app (or Router) — or a front-door bridge
 * (`fetchBridge(hono, { fallback: app })`), whose Hono app and fallback are then used. `honoApp` may
 * be left out when a bridge over it is mounted in the Express stack. Bridges found in the stack are
 * modelled where they are mounted (prefix, `mountPath`, position); without one the Hono app is
 * assumed to be in front of every Express route, at `options.prefix`.
 *
 * Routing only: a handler that calls `next()`, or middleware that answers (static files, proxies),
 * is not modelled.
 * @example
 * const report = migrationReport(app, hono)
 * console.log(report.format())
 * fs.writeFileSync('routes.json', JSON.stringify(report, null, 2))
 */
export function migrationReport(
  expressApp: unknown,
  honoApp?: unknown,
  options: MigrationReportOptions = {},
): MigrationReport {
  const frontDoor = bridgeInfo(expressApp)
  const stack = stackOf(frontDoor ? frontDoor.opts.fallback : expressApp)
  if (stack === undefined && !frontDoor) {
    throw new TypeError('migrationReport: expected an Express 4/5 app or Router, or a front-door fetchBridge')
  }
  const endpoints: Endpoint[] = collectEndpoints(stack ?? [])
  const found = endpoints.filter((e): e is ExpressBridge => e.kind === 'bridge' && isHonoApp(e.info.app))
  const hono = (honoApp ?? frontDoor?.app ?? found[0]?.info.app) as Hono | undefined
  if (!isHonoApp(hono)) {
    throw new TypeError(
      'migrationReport: expected a Hono app (none given, and no bridge over one in the Express stack)',
    )
  }
  let bridges = found.filter((b) => b.info.app === hono)
  let detected = true
  if (frontDoor && options.prefix === undefined) {
    bridges = [bridgeEndpoint({ ...frontDoor, app: hono }, [])]
  } else if (bridges.length === 0 || options.prefix !== undefined) {
    detected = false
    const keepMountPath = options.mountPath === 'keep'
    const routing = resolveExpressRouting(options.expressRouting)
    bridges = [
      bridgeEndpoint(
        {
          app: hono,
          opts: { keepMountPath, fallthrough: true, fallback: undefined },
          routing: routing && expressRoutingOf(hono, routing, frontDoor ? frontDoor.opts.fallback : expressApp),
        },
        [prefixMount(options.prefix ?? '/')],
      ),
    ]
  }
  for (const bridge of bridges) bridge.routing = bridge.info.routing?.({ app: expressApp })
  // An assumed or front-door bridge sees every request first.
  const model = detected && !frontDoor ? endpoints : [...bridges, ...endpoints.filter((e) => e.kind === 'route')]
  const candidates = model.flatMap((e) =>
    e.kind === 'route'
      ? e.methods.flatMap((method) => methodsFor(method).flatMap((m) => e.samples.map((path) => ({ method: m, path }))))
      : [],
  )
  const honoRows = honoEntries(model, bridges, hono, candidates)
  const express = expressEntries(
    model,
    hono,
    honoRows.flatMap((h) => h.samples),
  )
  const count = <T extends { status: string }>(rows: T[], status: string) =>
    rows.filter((r) => r.status === status).length
  const trials = bridges.map((b) => b.info.opts.shadow).filter((t): t is ShadowHook => t !== undefined)
  return new MigrationReport(
    bridges.map((b) => ({
      path: b.path,
      mountPath: b.info.opts.keepMountPath ? 'keep' : 'strip',
      detected,
      expressRouting: b.routing !== undefined,
    })),
    express,
    honoRows,
    partlyMoved(express),
    {
      expressRoutes: express.length,
      shadowed: count(express, 'shadowed'),
      partlyShadowed: count(express, 'partly-shadowed'),
      live: count(express, 'express'),
      underTrial: count(express, 'under-trial'),
      honoRoutes: honoRows.length,
      moved: count(honoRows, 'moved'),
      honoOnly: count(honoRows, 'hono-only'),
      unreachable: count(honoRows, 'unreachable'),
      honoUnderTrial: count(honoRows, 'under-trial'),
      unchecked: count(express, 'unchecked') + count(honoRows, 'unchecked'),
    },
    shadowEvidence(trials, honoRows),
  )
}
