/**
 * The URL Hono sees for an upgrade: the same as for an HTTP request through the same bridge. Upgrades
 * never enter Express, so what Express would have set (`baseUrl`, `req.app` for `trust proxy`) comes
 * from finding the bridge in the app's routers the way Express would match it.
 */

import { isExpressApp } from '../core/app-kinds.js'
import type { IncomingMessage } from 'node:http'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from '../request/url.js'

interface LayerLike {
  handle: unknown
  route?: unknown
  path?: string
  /** Express 4 (and router 2.0) store the matched prefix in `path`; newer routers return it. */
  match(path: string): boolean | { path: string }
}

/** The prefix `layer` matches of `path` (what Express strips), or undefined. */
function matched(layer: LayerLike, path: string): string | undefined {
  if (layer.route !== undefined || typeof layer.match !== 'function') return undefined
  let result: boolean | { path: string }
  try {
    result = layer.match(path)
  } catch {
    return undefined // a malformed %-escape: Express would fail the request, so the bridge never sees it
  }
  if (result === false) return undefined
  return typeof result === 'object' ? result.path : (layer.path ?? '')
}

export interface Mount {
  /** The Express app whose settings (`trust proxy`) apply, if any. */
  app: { settings?: Record<string, unknown> } | undefined
  /** The mount path Express would strip (`req.baseUrl`). */
  baseUrl: string
}

function stackOf(router: unknown): LayerLike[] | undefined {
  const stack = (router as { stack?: unknown } | null | undefined)?.stack
  return Array.isArray(stack) ? (stack as LayerLike[]) : undefined
}

function appStack(app: unknown): LayerLike[] | undefined {
  const express4 = (app as { _router?: unknown })._router
  if (express4 !== undefined) return stackOf(express4)
  try {
    return stackOf((app as { router?: unknown }).router)
  } catch {
    // Express 4 before its first route: `app.router` throws, and there is nothing to find
    return undefined
  }
}

/** Walk middleware layers (not routes) as Express would for `path`; the first bridge layer wins. */
function walk(stack: LayerLike[], bridge: unknown, path: string, baseUrl: string): string | undefined {
  for (let i = 0; i < stack.length; i++) {
    const layer = stack[i]
    let removed = matched(layer, path)
    if (removed === undefined) continue
    if (removed.endsWith('/')) removed = removed.slice(0, -1)
    if (layer.handle === bridge) return baseUrl + removed
    const inner = stackOf(layer.handle)
    if (inner === undefined) continue
    const rest = path.slice(removed.length)
    const found = walk(inner, bridge, rest.charCodeAt(0) === 47 ? rest : '/' + rest, baseUrl + removed)
    if (found !== undefined) return found
  }
  return undefined
}

function contains(stack: LayerLike[], bridge: unknown): boolean {
  for (let i = 0; i < stack.length; i++) {
    const handle = stack[i].handle
    if (handle === bridge) return true
    const inner = stackOf(handle)
    if (inner !== undefined && contains(inner, bridge)) return true
  }
  return false
}

/**
 * Where the bridge sits for this upgrade, or undefined when it is not on the upgrade's path (then
 * the upgrade is not the bridge's to answer).
 */
export function findMount(
  req: IncomingMessage,
  bridge: unknown,
  app: unknown,
  mountedAt: string | undefined,
): Mount | undefined {
  const target = req.url ?? '/'
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  const expressApp = isExpressApp(app) ? app : undefined
  if (mountedAt !== undefined && mountedAt !== '' && mountedAt !== '/') {
    const base = mountedAt.endsWith('/') ? mountedAt.slice(0, -1) : mountedAt
    const next = path.charCodeAt(base.length)
    if (!path.startsWith(base) || (path.length > base.length && next !== 47)) return undefined
    return { app: expressApp, baseUrl: base }
  }
  if (expressApp === undefined || mountedAt !== undefined) return { app: expressApp, baseUrl: '' }
  const stack = appStack(expressApp)
  if (stack === undefined) return { app: expressApp, baseUrl: '' }
  const baseUrl = walk(stack, bridge, path, '')
  if (baseUrl !== undefined) return { app: expressApp, baseUrl }
  // Mounted elsewhere: not the bridge's. Nowhere to be seen (a plain Hono app was attached, or a
  // sub-app hides it): the whole server.
  return contains(stack, bridge) ? undefined : { app: expressApp, baseUrl: '' }
}

/** The Request URL for an upgrade, built by the same rules (url.ts) as for HTTP requests. */
export function upgradeUrl(
  req: IncomingMessage,
  mount: Mount,
  origin: string | undefined,
  keepMountPath: boolean,
): string {
  const original = req.url ?? '/'
  let url = original
  if (mount.baseUrl !== '') {
    url = original.slice(mount.baseUrl.length)
    if (url.charCodeAt(0) !== 47) url = '/' + url
  }
  const view = {
    url,
    baseUrl: mount.baseUrl,
    originalUrl: original,
    headers: req.headers,
    socket: req.socket,
    app: mount.app,
  } as unknown as ExpressLikeRequest
  return requestUrl(view, origin ?? requestOrigin(view), keepMountPath)
}
