/**
 * A request a Hono route answered keeps the name its Express route had: the route's full pattern
 * (the Express mount prefix included) goes where tracers, metrics and loggers read an Express route —
 * OpenTelemetry's HTTP server metadata (the server span's name, `http.route`, the
 * `http.server.request.duration` metric), Sentry's transaction name, and Express's `req.route`
 * (`req.baseUrl + req.route.path`).
 * Runs once per request a Hono route answered; without a tracer and outside Express it reads one
 * global and returns.
 */

import type { IncomingMessage } from 'node:http'
import { answeringRoute, type HonoRoute, type HonoRoutes } from '../core/hono-routes.js'
import { appTarget, type ExpressLikeRequest } from '../request/url.js'
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

/**
 * What Express sets as `req.route` for a route: its pattern relative to `req.baseUrl`, and the
 * methods it has handlers for (`_all` for `app.all()`); `stack` is empty (Hono's handlers are not
 * Express layers).
 */
class AnsweredRoute {
  readonly stack: never[] = []
  readonly methods: Record<string, true>

  constructor(
    readonly path: string,
    method: string,
  ) {
    this.methods = method === 'ALL' ? { _all: true } : { [method.toLowerCase()]: true }
  }
}

/** Name the request the app's route answered (see the file's comment). */
export function nameAnsweredRoute(req: NamedRequest, naming: RouteNaming): void {
  const rpc = httpRpcMetadata()
  const express = typeof req.baseUrl === 'string'
  const sentry = sentryLoaded()
  if (rpc === undefined && !express && !sentry) return
  const route = answeringRoute(naming.hono, req.method ?? 'GET', appTarget(req, naming.keepMountPath))
  if (route === undefined) return
  // The mount's pattern: the Express instrumentation's route for the bridge's own layer (`/t/:tenant`)
  // when it traces the request, else Express's `baseUrl`.
  const mount = rpc === undefined ? mountOf(undefined, req.baseUrl) : tracedMount(rpc, req.baseUrl)
  const full = naming.keepMountPath ? route.path : joinRoute(mount, route.path)
  if (rpc !== undefined) rpc.route = full
  if (express) req.route = expressRoute(route, full, mount)
  if (sentry) nameSentryRequest(req.method ?? 'GET', full)
}

// The mount read from a request's metadata before the bridge first wrote its route there: a request
// named twice (by the app's onError, then when answered) must not take its own route for the mount.
const mounts = new WeakMap<RpcMetadata, string>()

function tracedMount(rpc: RpcMetadata, baseUrl: string | undefined): string {
  let mount = mounts.get(rpc)
  if (mount === undefined) mounts.set(rpc, (mount = mountOf(rpc.route, baseUrl)))
  return mount
}

function mountOf(traced: string | undefined, baseUrl: string | undefined): string {
  const mount = typeof traced === 'string' && traced.charCodeAt(0) === 47 ? traced : (baseUrl ?? '')
  return mount === '/' ? '' : mount
}

/** `/api` + `/users/:id`; a route `/` is the mount itself (as Express names `router.get('/')` under it). */
function joinRoute(mount: string, path: string): string {
  if (mount === '') return path
  return path === '/' ? mount : mount + path
}

function expressRoute(route: HonoRoute, full: string, mount: string): AnsweredRoute {
  const relative = mount !== '' && full.startsWith(mount) ? full.slice(mount.length) || '/' : full
  return new AnsweredRoute(relative, route.method)
}

/**
 * Name the request an error handler of the app is answering, before error trackers inside the app
 * (Sentry's Hono integration captures after `onError`) read the name. `env` is the bridge's.
 */
export function nameFailedRoute(env: unknown): void {
  const bindings = env as { incoming?: NamedRequest; [ROUTE_NAMING]?: RouteNaming } | undefined
  const naming = bindings?.[ROUTE_NAMING]
  if (naming !== undefined && bindings!.incoming !== undefined) nameAnsweredRoute(bindings!.incoming, naming)
}
