/**
 * A request a Hono route answered keeps the name its Express route had: the route's full pattern
 * (the Express mount prefix included) goes where tracers, metrics and loggers read an Express route —
 * OpenTelemetry's HTTP server metadata (the server span's name, `http.route`, the
 * `http.server.request.duration` metric), Sentry's transaction name, and Express's `req.route`
 * (`req.baseUrl + req.route.path`). Runs once per request a Hono route answered: the route is looked
 * up at once only for a tracer; `req.route` looks it up when first read. It is looked up on the URL of
 * the Request the app was given, the very path Hono routed on (under `expressRouting`, respelled),
 * not on `req.url` again.
 */

import type { IncomingMessage } from 'node:http'
import { answeringRoute, type HonoRoute, type HonoRoutes } from '../core/hono-routes.js'
import type { ExpressLikeRequest } from '../request/url.js'
import { httpRpcMetadata, type RpcMetadata } from './otel.js'
import { nameSentryRequest, sentryLoaded } from './sentry.js'

/** Key of the bridge's `env` holding the bridge's RouteNaming, for errors named inside the app. */
export const ROUTE_NAMING: unique symbol = Symbol('express-fetch-bridge/route-naming')

/** What a bridge over a Hono app needs to name its requests; made once per bridge. */
export interface RouteNaming {
  hono: HonoRoutes
  keepMountPath: boolean
}

type NamedRequest = IncomingMessage & ExpressLikeRequest & { route?: unknown }

interface Named {
  route: HonoRoute
  /** The full pattern: mount prefix and route. */
  full: string
  /** The mount's pattern (`''` at the root). */
  mount: string
}

const NO_LAYERS: readonly never[] = Object.freeze([])

/**
 * What Express sets as `req.route` for a route: its pattern relative to `req.baseUrl`, and the
 * methods it has handlers for (`_all` for `app.all()`); `stack` is empty (Hono's handlers are not
 * Express layers). Found when first read. A request no handler route matched (a middleware answered
 * it) has the path `*`, as one route for all of them.
 */
class AnsweredRoute {
  readonly stack: readonly never[] = NO_LAYERS
  #named: Named | null | undefined

  constructor(
    named: Named | null | undefined,
    private readonly naming: RouteNaming,
    private readonly method: string,
    private readonly appUrl: string,
    private readonly baseUrl: string,
  ) {
    this.#named = named
  }

  #resolve(): Named | null {
    if (this.#named === undefined)
      this.#named = resolve(this.naming, this.method, this.appUrl, mountOf(undefined, this.baseUrl)) ?? null
    return this.#named
  }

  get path(): string {
    const named = this.#resolve()
    if (named === null) return '*'
    const { full, mount } = named
    // Under mountPath 'keep' the route holds the mount as written, `baseUrl` as the client sent it
    // (Express matched it in any case unless `case sensitive routing`, when the two are equal).
    const under = mount !== '' && full.slice(0, mount.length).toLowerCase() === mount.toLowerCase()
    return under ? full.slice(mount.length) || '/' : full
  }

  get methods(): Record<string, true> {
    const method = this.#resolve()?.route.method ?? 'ALL'
    return method === 'ALL' ? { _all: true } : { [method.toLowerCase()]: true }
  }
}

/**
 * Name the request the app's route answered (see the file's comment). `appUrl` and `method`: the URL
 * and method of the Request the app was given.
 */
export function nameAnsweredRoute(req: NamedRequest, naming: RouteNaming, appUrl: string, method: string): void {
  const rpc = httpRpcMetadata()
  const sentry = sentryLoaded()
  const baseUrl = req.baseUrl
  // undefined: not looked up yet (req.route does when read); null: no handler route matched.
  let named: Named | null | undefined
  if (rpc !== undefined || sentry) {
    const mount = rpc === undefined ? mountOf(undefined, baseUrl) : tracedMount(rpc, baseUrl)
    named = resolve(naming, method, appUrl, mount) ?? null
    if (named !== null && rpc !== undefined) rpc.route = named.full
    if (named !== null && sentry) nameSentryRequest(method, named.full)
  }
  if (typeof baseUrl === 'string') req.route = new AnsweredRoute(named, naming, method, appUrl, baseUrl)
}

/**
 * Name the request an error handler of the app is answering, before error trackers inside the app
 * (Sentry's Hono integration captures after `onError`) read the name. `env` is the bridge's,
 * `appUrl` the URL of the Request the app was given.
 */
export function nameFailedRoute(env: unknown, appUrl: unknown): void {
  const bindings = env as { incoming?: NamedRequest; [ROUTE_NAMING]?: RouteNaming } | undefined
  const naming = bindings?.[ROUTE_NAMING]
  if (naming !== undefined && bindings!.incoming !== undefined && typeof appUrl === 'string')
    nameAnsweredRoute(bindings!.incoming, naming, appUrl, bindings!.incoming.method ?? 'GET')
}

function resolve(naming: RouteNaming, method: string, appUrl: string, mount: string): Named | undefined {
  const route = answeringRoute(naming.hono, method, appUrl)
  if (route === undefined) return undefined
  return { route, full: naming.keepMountPath ? route.path : joinRoute(mount, route.path), mount }
}

// The mount read from a request's metadata before the bridge first wrote its route there: a request
// named twice (by the app's onError, then when answered) must not take its own route for the mount.
const mounts = new WeakMap<RpcMetadata, string>()

/** The mount's pattern from the Express instrumentation's route for the bridge's own layer (`/t/:tenant`). */
function tracedMount(rpc: RpcMetadata, baseUrl: string | undefined): string {
  let mount = mounts.get(rpc)
  if (mount === undefined) mounts.set(rpc, (mount = mountOf(rpc.route, baseUrl)))
  return mount
}

/** The traced mount pattern, else Express's `baseUrl`; `''` at the root. */
function mountOf(traced: string | undefined, baseUrl: string | undefined): string {
  const mount = typeof traced === 'string' && traced.charCodeAt(0) === 47 ? traced : (baseUrl ?? '')
  return mount === '/' ? '' : mount
}

/** `/api` + `/users/:id`; a route `/` is the mount itself (as Express names `router.get('/')` under it). */
function joinRoute(mount: string, path: string): string {
  if (mount === '') return path
  return path === '/' ? mount : mount + path
}
