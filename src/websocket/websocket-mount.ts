/**
 * The URL Hono sees for an upgrade: the same as for an HTTP request through the same bridge. Upgrades
 * never enter Express, so what Express would have set (`baseUrl`, `req.app` for `trust proxy`) comes
 * from finding the bridge in the app's routers and sub-apps the way Express would match it.
 */

import { isExpressApp } from '../core/app-kinds.js'
import { innerOf, matchedPart, stackOf, type Layer } from '../core/express-stack.js'
import type { IncomingMessage } from 'node:http'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from '../request/url.js'
import type { TargetRouting } from '../core/routed-target.js'

export interface UpgradeMount {
  /** The Express app whose settings (`trust proxy`) apply, if any: the sub-app the bridge is in. */
  app: { settings?: Record<string, unknown> } | undefined
  /** The mount path Express would strip (`req.baseUrl`). */
  baseUrl: string
}

/** Walk middleware layers (not routes) as Express would for `path`; the first bridge layer wins. */
function walk(stack: Layer[], bridge: unknown, path: string, here: UpgradeMount): UpgradeMount | undefined {
  for (let i = 0; i < stack.length; i++) {
    const layer = stack[i]
    if (layer.route !== undefined) continue
    let removed = matchedPart(layer, path)
    if (removed === undefined) continue
    if (removed.endsWith('/')) removed = removed.slice(0, -1)
    if (layer.handle === bridge) return { app: here.app, baseUrl: here.baseUrl + removed }
    const inner = innerOf(layer)
    if (inner === undefined) continue
    const rest = path.slice(removed.length)
    const app = (inner.app ?? here.app) as UpgradeMount['app']
    const found = walk(inner.stack, bridge, rest.charCodeAt(0) === 47 ? rest : '/' + rest, {
      app,
      baseUrl: here.baseUrl + removed,
    })
    if (found !== undefined) return found
  }
  return undefined
}

function contains(stack: Layer[], bridge: unknown): boolean {
  for (let i = 0; i < stack.length; i++) {
    if (stack[i].handle === bridge) return true
    const inner = innerOf(stack[i])
    if (inner !== undefined && contains(inner.stack, bridge)) return true
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
): UpgradeMount | undefined {
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
  const stack = stackOf(expressApp)
  if (stack === undefined) return { app: expressApp, baseUrl: '' }
  const found = walk(stack, bridge, path, { app: expressApp, baseUrl: '' })
  if (found !== undefined) return found
  // Mounted elsewhere: not the bridge's. Nowhere to be seen (a plain Hono app was attached): the
  // whole server.
  return contains(stack, bridge) ? undefined : { app: expressApp, baseUrl: '' }
}

/** The Request URL for an upgrade, built by the same rules (url.ts) as for HTTP requests. */
export function upgradeUrl(
  req: IncomingMessage,
  mount: UpgradeMount,
  origin: string | undefined,
  keepMountPath: boolean,
  routing?: TargetRouting,
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
  return requestUrl(view, origin ?? requestOrigin(view), keepMountPath, routing)
}
