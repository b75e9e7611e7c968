import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
// @ts-ignore -- hono is an optional peer: without it the helper's type falls back to `any`
import type { UpgradeWebSocket } from 'hono/ws'

/**
 * The part of a `ws` WebSocket the bridge uses (structural, so `ws` stays an optional peer and its
 * types are not needed). `c.raw` in a handler is the real `ws` WebSocket.
 */
export interface WebSocketLike {
  readonly readyState: 0 | 1 | 2 | 3
  readonly protocol: string
  /** Bytes queued by `send()` and not yet handed to the network: the backpressure gauge. */
  readonly bufferedAmount: number
  send(data: string | ArrayBufferLike | ArrayBufferView, options?: { compress?: boolean }, cb?: (err?: Error) => void): void
  close(code?: number, reason?: string | Buffer): void
  terminate(): void
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this
  on(event: 'error', listener: (err: Error) => void): this
  once(event: 'close', listener: (code: number, reason: Buffer) => void): this
}

/** The part of a `ws` WebSocketServer the bridge uses: one made with `{ noServer: true }`. */
export interface WebSocketServerLike {
  options: { noServer?: boolean }
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (ws: any, request: IncomingMessage) => void): void
  on(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): this
  off(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): this
  emit(event: 'connection', ws: any, request: IncomingMessage): boolean
}

/** Per-route options of `upgradeWebSocket(createEvents, options)` (same as @hono/node-server's). */
export interface UpgradeWebSocketOptions {
  /**
   * Receives what an event handler (`onOpen`, `onMessage`, `onClose`, `onError`) throws or rejects
   * with. The socket stays open, as in a browser whose `onmessage` throws.
   * @default the `onError` of attachWebSockets(), else `console.error`
   * @example upgradeWebSocket(() => ({ onMessage }), { onError: (err) => log.warn(err) })
   */
  onError?: (err: unknown) => void
}

/** The `upgradeWebSocket` helper: the signature of Hono's WebSocket helpers (`hono/ws`). */
export type BridgeUpgradeWebSocket = UpgradeWebSocket<WebSocketLike, UpgradeWebSocketOptions>

/** Options of `attachWebSockets(server, bridge, options)`. */
export interface AttachWebSocketsOptions {
  /**
   * The `ws` server that completes the handshakes of Hono routes. It must be created with
   * `{ noServer: true }`: the bridge decides which upgrades it gets. Its options (`maxPayload`,
   * `perMessageDeflate`, `handleProtocols`…) apply; its `'connection'` event fires for every Hono socket.
   * @example attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
   */
  wss: WebSocketServerLike
  /**
   * The Express app the bridge is mounted in, for its mount path and `trust proxy` setting. Found by
   * itself when it is the server's request listener at attach time (`app.listen()`); pass it when
   * something (socket.io) wrapped that listener before attaching.
   * @default the server's Express request listener, if any
   * @example attachWebSockets(server, bridge, { wss, app })
   */
  app?: unknown
  /**
   * Where the bridge is mounted, when it cannot be found in the app's routers (e.g. inside a mounted
   * sub-app). Upgrades outside it go straight to the other upgrade listeners.
   * @default the mount path found in `app`'s routers, else `''` (the whole server)
   * @example attachWebSockets(server, bridge, { wss, mountedAt: '/v2/api' })
   */
  mountedAt?: string
  /**
   * Receives errors nobody else gets: the app throwing for an upgrade (answered 500), a legacy
   * upgrade listener throwing after an asynchronous Hono decision, and handler errors of routes
   * without their own `onError`.
   * @default console.error
   * @example attachWebSockets(server, bridge, { wss, onError: (err) => log.error(err) })
   */
  onError?: (err: unknown) => void
}

/** What `attachWebSockets` returns. */
export interface WebSocketAttachment {
  /** Hono WebSockets open right now. */
  readonly connections: number
  /** Give the server back its own upgrade handling (open sockets stay open). */
  detach(): void
}
