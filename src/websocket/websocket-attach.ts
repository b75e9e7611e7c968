/**
 * The one upgrade dispatcher. It takes over the server's `emit('upgrade')`, so the 'upgrade'
 * listeners (socket.io, `ws` with `{ server }`, a proxy — before or after attaching) stay on the
 * server, untouched, and only run when the Hono app leaves an upgrade alone: every upgrade has
 * exactly one owner. A no-op marker listener keeps Node delivering upgrades to 'upgrade' even
 * when no other listener exists.
 */

import { PlatformRequest } from '../core/platform.js'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { bridgeInfo, type BridgeInfo } from '../bridge/bridge-info.js'
import { fetchBridge } from '../bridge/bridge.js'
import { BadRequestError } from '../core/errors.js'
import { isUnmatched } from '../bridge/fallthrough.js'
import { requestHeaders } from '../core/headers.js'
import type { BridgeHandler, FetchApp } from '../bridge/options.js'
import { openSocket } from './websocket-context.js'
import { PENDING_UPGRADE, type PendingUpgrade } from './websocket-helper.js'
import { findMount, upgradeUrl } from './websocket-mount.js'
import { isExpressApp, isThenable } from '../core/app-kinds.js'
import { discardBody, headerLines, refuseUpgrade } from './websocket-refuse.js'
import type { AttachWebSocketsOptions, WebSocketAttachment, WebSocketLike } from './websocket-types.js'

const DISPATCHER = Symbol('express-fetch-bridge.upgradeDispatcher')

type Emit = Server['emit'] & { [DISPATCHER]?: true }

function upgradeMarker(): void {}

function defaultReport(err: unknown): void {
  console.error(err)
}

function isWebSocketUpgrade(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade
  return upgrade !== undefined && upgrade.toLowerCase() === 'websocket'
}

/**
 * Serve the Hono app's `upgradeWebSocket` routes on `server`, in front of the upgrade listeners it
 * already has (or gets later), which keep every upgrade the app does not take.
 * @example
 * const bridge = fetchBridge(hono)
 * app.use('/api', bridge)
 * const server = app.listen(3000)
 * attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
 */
export function attachWebSockets(
  server: Server,
  bridge: BridgeHandler | FetchApp,
  options: AttachWebSocketsOptions,
): WebSocketAttachment {
  if (options === null || typeof options !== 'object' || options.wss === undefined || options.wss === null) {
    throw new TypeError(
      'attachWebSockets: options.wss is required, e.g. { wss: new WebSocketServer({ noServer: true }) }',
    )
  }
  const { wss } = options
  if (typeof wss.handleUpgrade !== 'function' || wss.options?.noServer !== true) {
    throw new TypeError('attachWebSockets: wss must be a ws WebSocketServer created with { noServer: true }')
  }
  if (
    options.mountedAt !== undefined &&
    (typeof options.mountedAt !== 'string' || (options.mountedAt !== '' && options.mountedAt[0] !== '/'))
  ) {
    throw new TypeError(
      `attachWebSockets: mountedAt must be a path starting with '/', got ${String(options.mountedAt)}`,
    )
  }
  const parts: BridgeInfo = bridgeInfo(bridge) ?? bridgeInfo(fetchBridge(bridge as FetchApp))!
  const report = options.onError ?? defaultReport
  const app = options.app ?? server.listeners('request').find(isExpressApp)
  const { origin, keepMountPath, fallthrough } = parts.opts
  const envFactory = parts.opts.env
  const open = new Set<WebSocketLike>()
  const previousEmit = server.emit as Emit
  let attached = true

  /** Hand the upgrade to whoever had it before us: an earlier dispatcher, the listeners, or nobody. */
  function passOn(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (previousEmit[DISPATCHER] === true) {
      ;(previousEmit as (event: string, ...args: unknown[]) => boolean).call(server, 'upgrade', req, socket, head)
    } else if (server.listeners('upgrade').some((fn) => fn !== upgradeMarker)) {
      ;(previousEmit as (event: string, ...args: unknown[]) => boolean).call(server, 'upgrade', req, socket, head)
    } else {
      refuseUpgrade(socket, isWebSocketUpgrade(req) ? 404 : 400)
    }
  }

  function passOnLater(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    try {
      passOn(req, socket, head)
    } catch (err) {
      // Thrown synchronously it would have reached the server's caller; here, after an await, it
      // would be an unhandled rejection: close the socket and report instead.
      socket.destroy()
      report(err)
    }
  }

  function complete(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    pending: PendingUpgrade,
    headers: Headers | undefined,
  ): void {
    const extra = headerLines(headers)
    const addHeaders = (lines: string[]) => {
      for (let i = 0; i < extra.length; i++) lines.push(extra[i])
    }
    wss.on('headers', addHeaders)
    try {
      wss.handleUpgrade(req, socket, head, (ws: WebSocketLike) => {
        open.add(ws)
        ws.once('close', () => open.delete(ws))
        openSocket(ws, pending, report)
        wss.emit('connection', ws, req)
      })
    } finally {
      wss.off('headers', addHeaders)
    }
  }

  function dispatch(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const mount = attached && isWebSocketUpgrade(req) ? findMount(req, bridge, app, options.mountedAt) : undefined
    if (mount === undefined) return passOn(req, socket, head)
    // Node removed its own 'error' listener at the upgrade: a reset while the app decides must not crash.
    const ignoreError = () => {}
    socket.on('error', ignoreError)
    const pending: PendingUpgrade = {}
    let env: Record<string | symbol, unknown> = {}
    let result: unknown
    try {
      const request = new PlatformRequest(upgradeUrl(req, mount, origin, keepMountPath), {
        method: req.method ?? 'GET',
        headers: requestHeaders(req),
      })
      env = { incoming: req, outgoing: undefined, [PENDING_UPGRADE]: pending }
      if (envFactory !== undefined) Object.assign(env, envFactory(req, undefined))
      result = parts.fetch(request, env, parts.ctx)
    } catch (err) {
      return fail(err)
    }
    if (isThenable(result)) result.then((response) => decide(response, true), fail)
    else decide(result, false)

    function fail(err: unknown): void {
      if (!(err instanceof BadRequestError)) report(err)
      refuseUpgrade(socket, err instanceof BadRequestError ? 400 : 500)
    }

    function decide(response: unknown, later: boolean): void {
      if (socket.destroyed) return // the client left while the app decided
      const answer = response as Response | null | undefined
      const notMine = answer === undefined || answer === null ? fallthrough : isUnmatched(env, answer)
      if (notMine) {
        socket.off('error', ignoreError)
        return later ? passOnLater(req, socket, head) : passOn(req, socket, head)
      }
      if (answer === undefined || answer === null) return fail(new TypeError('The app returned no Response'))
      if (pending.events !== undefined && answer.status >= 200 && answer.status < 300) {
        socket.off('error', ignoreError)
        return complete(req, socket, head, pending, answer.headers)
      }
      // Answered without upgrading (a 401 from auth middleware, a plain route): refuse with that answer.
      discardBody(answer)
      refuseUpgrade(socket, answer.status, answer.headers)
    }
  }

  // On the path of every request ('request' is emitted through here too): plain calls, no apply.
  const emit = function emit(this: Server, event: string | symbol, a?: unknown, b?: unknown, c?: unknown) {
    if (event === 'upgrade') {
      dispatch(a as IncomingMessage, b as Duplex, c as Buffer)
      return true
    }
    const call = previousEmit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean
    switch (arguments.length) {
      case 1:
        return call.call(this, event)
      case 2:
        return call.call(this, event, a)
      case 3:
        return call.call(this, event, a, b)
      default:
        return call.apply(this, arguments as unknown as [string | symbol, ...unknown[]])
    }
  } as Emit
  emit[DISPATCHER] = true
  server.emit = emit

  const ensureMarker = () => {
    if (attached && !server.listeners('upgrade').includes(upgradeMarker)) server.on('upgrade', upgradeMarker)
  }
  const onRemove = (event: string | symbol, fn: unknown) => {
    // Someone cleared the 'upgrade' listeners: without the marker Node would treat upgrades as requests.
    if (event === 'upgrade' && fn === upgradeMarker) process.nextTick(ensureMarker)
  }
  ensureMarker()
  server.on('removeListener', onRemove)

  // server.close() waits for every connection: close the Hono sockets (1001 Going Away) so it can finish.
  const close = server.close
  server.close = function closeWithSockets(this: Server, callback?: (err?: Error) => void) {
    for (const ws of open) ws.close(1001, 'Server closing')
    return close.call(this, callback)
  } as Server['close']

  return {
    get connections() {
      return open.size
    },
    detach() {
      if (!attached) return
      attached = false
      server.off('removeListener', onRemove)
      if (server.emit === emit) server.emit = previousEmit
      if (server.close !== close) server.close = close
      // Another dispatcher attached later still counts on the marker.
      if (server.emit[DISPATCHER as keyof Server['emit']] === undefined) server.off('upgrade', upgradeMarker)
    },
  }
}
