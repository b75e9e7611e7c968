/**
 * The report's model of the server: who answers each representative request — the first Express route
 * in stack order, or at a bridge the Hono route Hono's own router matches, as the bridge matches it —
 * and from that, each route's status.
 */
import type { ExpressBridge, Endpoint, ExpressRoute } from './migration-express.js'
import { honoSamples, joinPath, neighbours } from './migration-samples.js'
import { honoMatches, isMiddleware, type HonoRoute, type HonoRoutes as Hono } from '../core/hono-routes.js'
import { routedTarget } from '../core/routed-target.js'
import { mountPrefixWarnings } from './migration-checks.js'
import type {
  ExpressRouteEntry,
  ExpressRouteStatus,
  HonoRouteEntry,
  HonoRouteStatus,
  PartlyMovedPath,
  SampleResult,
  TrialHold,
} from './migration-report.js'

const ANY_METHOD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
export const methodsFor = (method: string): string[] => (method === '*' || method === 'ALL' ? ANY_METHOD : [method])

/**
 * Who answers a request: an Express route (none: Express's 404, after a trial held it back), or Hono.
 * `trial`: a bridge's shadow trial held it back on the way.
 */
type Taker =
  | { side: 'express'; route: ExpressRoute | undefined; label: string; trial?: TrialHold | undefined }
  | { side: 'hono'; label: string; trial?: undefined }

const label = (method: string, path: string) => `${method} ${path}`

function firstTaker(endpoints: Endpoint[], hono: Hono, method: string, path: string): Taker | undefined {
  let trial: TrialHold | undefined
  for (const endpoint of endpoints) {
    if (endpoint.kind === 'route') {
      if (endpoint.serves(method, path))
        return { side: 'express', route: endpoint, label: label(method, endpoint.path), trial }
      continue
    }
    if (endpoint.info.app !== hono) continue
    const matched = honoAt(endpoint, hono, method, path)
    if (matched === undefined) continue
    const served = matched[0]
    if (served !== undefined) {
      const canary = endpoint.info.opts.shadow?.canaryShare(served.path)
      if (canary === undefined) return { side: 'hono', label: label(served.method, served.path) }
      // A route under trial: its bridge hands the request on, and Express answers it (but for the canary share).
      trial ??= { honoRoute: label(served.method, served.path), canary }
      continue
    }
    if (!endpoint.info.opts.fallthrough) return { side: 'hono', label: '(Hono not found: fallthrough off)' }
  }
  return trial && { side: 'express', route: undefined, label: '-', trial }
}

/** A sample request and who answers it. */
function sample(method: string, path: string, taker: Taker | undefined): SampleResult {
  const servedBy = taker?.side === 'hono' ? 'hono' : 'express'
  const result: SampleResult = { method, path, servedBy, answeredBy: taker?.label ?? '-' }
  if (taker?.trial !== undefined) result.trial = taker.trial
  return result
}

/** The Hono routes a request to `path` reaches at `bridge`, as the bridge matches them; undefined if it does not reach it. */
function honoAt(bridge: ExpressBridge, hono: Hono, method: string, path: string): HonoRoute[] | undefined {
  const appPath = bridge.appPath(path)
  if (appPath === undefined) return undefined
  if (bridge.routing === undefined) return honoMatches(hono, method, appPath)
  const mounted = bridge.info.opts.keepMountPath ? bridge.mountedLength(path) : 0
  return honoMatches(hono, method, routedTarget(bridge.routing, method, appPath, mounted))
}

/** The first Express route that serves the request when no bridge is there: who would answer without Hono. */
function firstExpressRoute(endpoints: Endpoint[], method: string, path: string): ExpressRoute | undefined {
  for (const endpoint of endpoints) if (endpoint.kind === 'route' && endpoint.serves(method, path)) return endpoint
  return undefined
}

/** `extra`: the Hono routes' sample requests, so `/api/:v/x` is seen partly taken by Hono's `/api/v1/x`. */
export function expressEntries(endpoints: Endpoint[], hono: Hono, extra: SampleResult[]): ExpressRouteEntry[] {
  const entries: ExpressRouteEntry[] = []
  for (const route of endpoints) {
    if (route.kind !== 'route') continue
    for (const method of route.methods) {
      const samples: SampleResult[] = []
      const honoRoutes = new Set<string>()
      let reached = 0
      // Some of its requests reach it because a trial holds them back: Express must keep answering them.
      let held = false
      for (const m of methodsFor(method)) {
        const paths = new Set(route.samples)
        for (const s of extra) if (s.method === m) paths.add(s.path)
        for (const path of paths) {
          // Only requests that reach this route without Hono count: an earlier Express route takes the rest anyway.
          if (!route.serves(m, path) || firstExpressRoute(endpoints, m, path) !== route) continue
          const taker = firstTaker(endpoints, hono, m, path)
          if (taker?.side === 'hono') honoRoutes.add(taker.label)
          else if (taker?.route === route) {
            reached++
            if (taker.trial !== undefined) honoRoutes.add(taker.trial.honoRoute)
            held ||= taker.trial !== undefined
          }
          samples.push(sample(m, path, taker))
        }
      }
      // Dead code when none of its requests reaches it any more and Hono took some of them.
      const status: ExpressRouteStatus =
        samples.length === 0
          ? 'unchecked'
          : held
            ? 'under-trial'
            : honoRoutes.size === 0
              ? 'express'
              : reached === 0
                ? 'shadowed'
                : 'partly-shadowed'
      entries.push({ method, path: route.path, status, honoRoutes: [...honoRoutes], samples })
    }
  }
  return entries
}

function prefixSamples(bridge: ExpressBridge): string[] {
  return bridge.mounts.reduce<string[]>((acc, m) => acc.flatMap((a) => m.samples.map((s) => joinPath(a, s))), ['/'])
}

/** `extra`: the Express routes' candidate requests, so a Hono `/*` is seen to replace `/a/:id`. */
export function honoEntries(
  endpoints: Endpoint[],
  bridges: ExpressBridge[],
  hono: Hono,
  extra: Array<{ method: string; path: string }>,
): HonoRouteEntry[] {
  const entries: HonoRouteEntry[] = []
  const seen = new Set<string>()
  for (const route of hono.routes) {
    const key = label(route.method, route.path)
    if (isMiddleware(route.handler) || seen.has(key)) continue
    seen.add(key)
    const samples: SampleResult[] = []
    const expressRoutes = new Set<string>()
    // Whether this route answers any request: not when Express routes before the bridge, or Hono
    // routes registered before it (`all('/users/:id')` before `get('/users/:id')`), take them all.
    let answers = false
    // Whether a trial holds back requests it would answer (Express answers them, but for the canary share).
    let held = false
    for (const bridge of bridges) {
      const prefixes = bridge.info.opts.keepMountPath ? ['/'] : prefixSamples(bridge)
      for (const m of methodsFor(route.method)) {
        const paths = new Set<string>()
        for (const prefix of prefixes)
          for (const sample of honoSamples(route.path))
            for (const p of neighbours(joinPath(prefix, sample))) paths.add(p)
        for (const e of extra) if (e.method === m) paths.add(e.path)
        for (const path of paths) {
          if (!honoAt(bridge, hono, m, path)?.includes(route)) continue
          const taker = firstTaker(endpoints, hono, m, path)
          samples.push(sample(m, path, taker))
          if (taker?.trial?.honoRoute === key) held = true
          else if (taker?.side === 'hono' && taker.label === key) answers = true
          else continue
          // The Express route this one replaces: the one that would serve what Hono now answers.
          const replaced = firstExpressRoute(endpoints, m, path)
          if (replaced !== undefined) expressRoutes.add(label(m, replaced.path))
        }
      }
    }
    const status: HonoRouteStatus =
      samples.length === 0
        ? 'unchecked'
        : held
          ? 'under-trial'
          : !answers
            ? 'unreachable'
            : expressRoutes.size > 0
              ? 'moved'
              : 'hono-only'
    const warnings = mountPrefixWarnings(route.path, bridges)
    entries.push({
      method: route.method,
      path: route.path,
      status,
      expressRoutes: [...expressRoutes],
      warnings,
      samples,
    })
  }
  return entries
}

export function partlyMoved(entries: ExpressRouteEntry[]): PartlyMovedPath[] {
  const byPath = new Map<string, PartlyMovedPath>()
  for (const e of entries) {
    const row = byPath.get(e.path) ?? { path: e.path, hono: [], express: [] }
    byPath.set(e.path, row)
    // A method moved once Hono answers its requests (all, or some: case and slash variants may still reach Express).
    if (e.status === 'shadowed' || (e.status === 'partly-shadowed' && e.method !== '*')) row.hono.push(e.method)
    else if (e.status !== 'unchecked') row.express.push(e.method)
    // An `app.all()` route Hono took some methods of: those methods moved, the rest did not.
    if (e.status === 'partly-shadowed' && e.method === '*') {
      for (const s of e.samples) if (s.servedBy === 'hono' && !row.hono.includes(s.method)) row.hono.push(s.method)
    }
  }
  return [...byPath.values()].filter((row) => row.hono.length > 0 && row.express.length > 0)
}
