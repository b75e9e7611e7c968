/**
 * The one upgrade dispatcher. It takes over the server's `emit('upgrade')`, so the 'upgrade'
 * listeners (socket.io, `ws` with `{ server }`, a proxy — before or after attaching) stay on the
 * server, untouched, and only run when the Hono app leaves an upgrade alone: every upgrade has
 * exactly one owner. A no-op marker listener keeps Node delivering upgrades to 'upgrade' even
 * when no other listener exists.
 */

import { PlatformRequest } from '../core/platform.js'
import type { IncomingMessage, Server } from 'node:http'
import type { Http2SecureServer } from 'node:http2'
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

const DISPATCHER = Symbol('express-fetch-bridge/upgrade-dispatcher')

type Emit = Server['emit'] & { [DISPATCHER]?: true }

function upgradeMarker(): void {}

function defaultReport(err: unknown): void {
  console.error(err)
}

function isWebSocketUpgrade(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade
  return upgrade !== undefined && upgrade.toLowerCase() === 'websocket'
}

/** Throws a TypeError naming the option, for options that cannot work. */
function checkOptions(options: AttachWebSocketsOptions): void {
  if (options === null || typeof options !== 'object' || options.wss === undefined || options.wss === null) {
    throw new TypeError(
      'attachWebSockets: options.wss is required, e.g. { wss: new WebSocketServer({ noServer: true }) }',
    )
  }
  const { wss, mountedAt } = options
  if (typeof wss.handleUpgrade !== 'function' || wss.options?.noServer !== true) {
    throw new TypeError('attachWebSockets: wss must be a ws WebSocketServer created with { noServer: true }')
  }
  if (mountedAt !== undefined && (typeof mountedAt !== 'string' || (mountedAt !== '' && mountedAt[0] !== '/'))) {
    throw new TypeError(`attachWebSockets: mountedAt must be a path starting with '/', got ${String(mountedAt)}`)
  }
}

/** One attachment: decides each upgrade, and hands what is not the app's to whoever had it before. */
class UpgradeDispatcher {
  readonly open = new Set<WebSocketLike>()
  attached = true
  readonly #server: Server
  readonly #previousEmit: Emit
  readonly #bridge: BridgeHandler | FetchApp
  readonly #parts: BridgeInfo
  readonly #options: AttachWebSocketsOptions
  readonly #app: unknown
  readonly reportError: (err: unknown) => void

  constructor(server: Server, bridge: BridgeHandler | FetchApp, options: AttachWebSocketsOptions) {
    this.#server = server
    this.#previousEmit = server.emit as Emit
    this.#bridge = bridge
    this.#parts = bridgeInfo(bridge) ?? bridgeInfo(fetchBridge(bridge as FetchApp))!
    this.#options = options
    this.#app = options.app ?? server.listeners('request').find(isExpressApp)
    this.reportError = options.onError ?? defaultReport
  }

  get previousEmit(): Emit {
    return this.#previousEmit
  }

  /** Hand the upgrade to whoever had it before us: an earlier dispatcher, the listeners, or nobody. */
  toListeners(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const server = this.#server
    if (this.#previousEmit[DISPATCHER] === true || server.listeners('upgrade').some((fn) => fn !== upgradeMarker)) {
      ;(this.#previousEmit as (event: string, ...args: unknown[]) => boolean).call(server, 'upgrade', req, socket, head)
    } else {
      refuseUpgrade(socket, isWebSocketUpgrade(req) ? 404 : 400)
    }
  }

  toListenersLater(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    try {
      this.toListeners(req, socket, head)
    } catch (err) {
      // Thrown synchronously it would have reached the server's caller; here, after an await, it
      // would be an unhandled rejection: close the socket and report instead.
      socket.destroy()
      this.reportError(err)
    }
  }

  /** The app took the upgrade: complete the handshake with its headers and open the socket. */
  complete(req: IncomingMessage, socket: Duplex, head: Buffer, pending: PendingUpgrade, headers: Headers): void {
    const { wss } = this.#options
    const extra = headerLines(headers)
    const addHeaders = (lines: string[]) => {
      for (let i = 0; i < extra.length; i++) lines.push(extra[i])
    }
    wss.on('headers', addHeaders)
    try {
      wss.handleUpgrade(req, socket, head, (ws: WebSocketLike) => {
        this.open.add(ws)
        ws.once('close', () => this.open.delete(ws))
        openSocket(ws, pending, this.reportError)
        wss.emit('connection', ws, req)
      })
    } finally {
      wss.off('headers', addHeaders)
    }
  }

  dispatch(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const mount =
      this.attached && isWebSocketUpgrade(req)
        ? findMount(req, this.#bridge, this.#app, this.#options.mountedAt)
        : undefined
    if (mount === undefined) return this.toListeners(req, socket, head)
    const { origin, keepMountPath, env: envFactory } = this.#parts.opts
    // Node removed its own 'error' listener at the upgrade: a reset while the app decides must not crash.
    socket.on('error', ignore)
    const pending: PendingUpgrade = {}
    const env: Record<string | symbol, unknown> = { incoming: req, outgoing: undefined, [PENDING_UPGRADE]: pending }
    const upgrade: Upgrade = { req, socket, head, env, pending }
    let result: unknown
    try {
      const request = new PlatformRequest(upgradeUrl(req, mount, origin, keepMountPath), {
        method: req.method ?? 'GET',
        headers: requestHeaders(req),
      })
      if (envFactory !== undefined) Object.assign(env, envFactory(req, undefined))
      result = this.#parts.fetch(request, env, this.#parts.ctx)
    } catch (err) {
      return this.fail(upgrade, err)
    }
    if (isThenable(result)) {
      result.then(
        (response) => this.decide(upgrade, response, true),
        (err) => this.fail(upgrade, err),
      )
    } else this.decide(upgrade, result, false)
  }

  fail({ socket }: Upgrade, err: unknown): void {
    if (!(err instanceof BadRequestError)) this.reportError(err)
    refuseUpgrade(socket, err instanceof BadRequestError ? 400 : 500)
  }

  /** What the app answered: not its upgrade (pass on), an accepted upgrade, or a refusal. */
  decide(upgrade: Upgrade, response: unknown, later: boolean): void {
    const { req, socket, head, env, pending } = upgrade
    if (socket.destroyed) return // the client left while the app decided
    const answer = response as Response | null | undefined
    const notMine = answer === undefined || answer === null ? this.#parts.opts.fallthrough : isUnmatched(env, answer)
    if (notMine) {
      socket.off('error', ignore)
      return later ? this.toListenersLater(req, socket, head) : this.toListeners(req, socket, head)
    }
    if (answer === undefined || answer === null)
      return this.fail(upgrade, new TypeError('The app returned no Response'))
    if (pending.events !== undefined && answer.status >= 200 && answer.status < 300) {
      socket.off('error', ignore)
      return this.complete(req, socket, head, pending, answer.headers)
    }
    // Answered without upgrading (a 401 from auth middleware, a plain route): refuse with that answer.
    discardBody(answer)
    refuseUpgrade(socket, answer.status, answer.headers)
  }
}

interface Upgrade {
  req: IncomingMessage
  socket: Duplex
  head: Buffer
  env: Record<string | symbol, unknown>
  pending: PendingUpgrade
}

function ignore(): void {}

/** `server.emit` routing 'upgrade' to the dispatcher; on the path of every request, so plain calls, no apply. */
function dispatchingEmit(dispatcher: UpgradeDispatcher): Emit {
  const call = dispatcher.previousEmit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean
  const emit = function emit(this: Server, event: string | symbol, a?: unknown, b?: unknown, c?: unknown) {
    if (event === 'upgrade') {
      dispatcher.dispatch(a as IncomingMessage, b as Duplex, c as Buffer)
      return true
    }
    switch (arguments.length) {
      case 1:
        return call.call(this, event)
      case 2:
        return call.call(this, event, a)
      case 3:
        return call.call(this, event, a, b)
      default:
        // `arguments`, not a rest parameter: no array is built for the common one-to-three-argument emits.
        // eslint-disable-next-line prefer-rest-params
        return call.apply(this, arguments as unknown as [string | symbol, ...unknown[]])
    }
  } as Emit
  emit[DISPATCHER] = true
  return emit
}

/**
 * Serve the Hono app's `upgradeWebSocket` routes on `server`, in front of the upgrade listeners it
 * already has (or gets later), which keep every upgrade the app does not take.
 * @example
 * const bridge = fetchBridge(hono)
 * app.use('/api', bridge)
 * const server = app.listen(3000)
 * attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
 * @example On an HTTP/2 server with `allowHTTP1: true` (WebSockets are HTTP/1.1 upgrades)
 * const server = fetchBridge(hono, { fallback: app }).listen({ port: 8443, http2: { key, cert } })
 * attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
 */
export function attachWebSockets(
  httpServer: Server | Http2SecureServer,
  bridge: BridgeHandler | FetchApp,
  options: AttachWebSocketsOptions,
): WebSocketAttachment {
  // node:http2 with allowHTTP1 hands HTTP/1.1 connections to node:http's parser: the same 'upgrade' event.
  const server = httpServer as Server
  checkOptions(options)
  const dispatcher = new UpgradeDispatcher(server, bridge, options)
  const previousEmit = dispatcher.previousEmit
  const emit = dispatchingEmit(dispatcher)
  server.emit = emit

  const ensureMarker = () => {
    if (dispatcher.attached && !server.listeners('upgrade').includes(upgradeMarker)) server.on('upgrade', upgradeMarker)
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
    for (const ws of dispatcher.open) ws.close(1001, 'Server closing')
    return close.call(this, callback)
  } as Server['close']

  return {
    get connections() {
      return dispatcher.open.size
    },
    detach() {
      if (!dispatcher.attached) return
      dispatcher.attached = false
      server.off('removeListener', onRemove)
      if (server.emit === emit) server.emit = previousEmit
      if (server.close !== close) server.close = close
      // Another dispatcher attached later still counts on the marker.
      if (server.emit[DISPATCHER as keyof Server['emit']] === undefined) server.off('upgrade', upgradeMarker)
    },
  }
}
