/**
 * `upgradeWebSocket`, with the signature of Hono's WebSocket helpers. It only records the route's
 * events on the pending upgrade the dispatcher put in `env`; the dispatcher completes the handshake
 * once the whole middleware chain has answered, so a later 401 still refuses the upgrade.
 */

import type { BridgeUpgradeWebSocket, UpgradeWebSocketOptions } from './websocket-types.js'

/** Where the dispatcher and the helper meet: `env[PENDING_UPGRADE]` (absent for plain HTTP requests). */
export const PENDING_UPGRADE = Symbol('express-fetch-bridge/pending-upgrade')

/** Events the route gave (loosely typed: they come from user code). */
export interface RouteEvents {
  onOpen?: (evt: Event, ws: any) => unknown
  onMessage?: (evt: MessageEvent, ws: any) => unknown
  onClose?: (evt: Event, ws: any) => unknown
  onError?: (evt: Event, ws: any) => unknown
}

export interface PendingUpgrade {
  events?: RouteEvents | undefined
  options?: UpgradeWebSocketOptions | undefined
  /** `c.req.url`: what `ws.url` reports. */
  url?: string | undefined
}

interface ContextLike {
  env: unknown
  req: { url: string; header(name: string): string | undefined }
}

function accept(
  c: ContextLike,
  events: RouteEvents | undefined,
  options: UpgradeWebSocketOptions | undefined,
): Response | undefined {
  const upgrade = c.req.header('upgrade')
  if (upgrade === undefined || upgrade.toLowerCase() !== 'websocket') return undefined
  const pending = (c.env as Record<symbol, PendingUpgrade | undefined> | undefined)?.[PENDING_UPGRADE]
  if (pending === undefined) {
    // The upgrade reached the app as a plain request: the server has no upgrade dispatcher.
    return new Response('WebSocket upgrades need attachWebSockets(server, bridge, { wss })', { status: 501 })
  }
  pending.events = events ?? {}
  pending.options = options
  pending.url = c.req.url
  // Only a marker: the dispatcher answers 101 instead (a Response cannot carry status 101).
  return new Response(null)
}

/**
 * Upgrade a Hono route to a WebSocket, on a server set up with `attachWebSockets()`. Same
 * signature and events as `upgradeWebSocket` from @hono/node-server, hono/bun or hono/deno: swap the
 * import and the route code stays as it is.
 * @example
 * app.get('/chat', upgradeWebSocket((c) => ({
 *   onMessage(evt, ws) { ws.send(`echo: ${evt.data}`) },
 *   onClose(evt) { console.log('closed', evt.code, evt.reason) },
 * })))
 */
export const upgradeWebSocket: BridgeUpgradeWebSocket = ((...args: any[]) => {
  if (typeof args[0] === 'function') {
    const createEvents = args[0] as (c: ContextLike) => RouteEvents | Promise<RouteEvents>
    const options = args[1] as UpgradeWebSocketOptions | undefined
    return async function upgradeWebSocket(c: ContextLike, next: () => Promise<void>) {
      const answered = accept(c, await createEvents(c), options)
      if (answered !== undefined) return answered
      await next()
    }
  }
  const answered = accept(args[0], args[1], args[2])
  return answered === undefined ? Promise.reject(new Error('Failed to upgrade WebSocket')) : Promise.resolve(answered)
}) as BridgeUpgradeWebSocket
