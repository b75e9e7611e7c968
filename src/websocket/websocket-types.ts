import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
// @ts-ignore -- hono is an optional peer: without it the helper's type falls back to `any`
import type { Context, MiddlewareHandler } from 'hono'
import type { BinaryType } from '../core/fetch-types.js'

/**
 * The part of a `ws` WebSocket the bridge uses (structural, so `ws` stays an optional peer and its
 * types are not needed). `c.raw` in a handler is the real `ws` WebSocket.
 */
export interface WebSocketLike {
  readonly readyState: 0 | 1 | 2 | 3
  readonly protocol: string
  /** Bytes queued by `send()` and not yet handed to the network: the backpressure gauge. */
  readonly bufferedAmount: number
  send(
    data: string | ArrayBufferLike | ArrayBufferView,
    options?: { compress?: boolean },
    cb?: (err?: Error) => void,
  ): void
  close(code?: number, reason?: string | Buffer): void
  terminate(): void
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this
  on(event: 'error', listener: (err: Error) => void): this
  once(event: 'close', listener: (code: number, reason: Buffer) => void): this
}

/** The part of a `ws` WebSocketServer the bridge uses: one made with `{ noServer: true }`. */
export interface WebSocketServerLike {
  options: { noServer?: boolean | undefined }
  handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (ws: any, request: IncomingMessage) => void,
  ): void
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
  onError?: ((err: unknown) => void) | undefined
}

// Hono's own helper type (`UpgradeWebSocket` from `hono/ws`) is written against the DOM lib's
// MessageEvent/CloseEvent: the same shapes are declared here so the subpath type-checks in a Node-only
// project. Events are method signatures, so handlers annotated with the DOM types are accepted too.

/** The `ws` context a route's events get: Hono's WSContext, plus `bufferedAmount` for backpressure. */
export interface BridgeWSContext {
  send(source: string | ArrayBuffer | Uint8Array, options?: { compress?: boolean }): void
  close(code?: number, reason?: string): void
  /** The `ws` WebSocket. */
  raw?: WebSocketLike
  /** How binary messages arrive: `ArrayBuffer` (default) or `Blob`. */
  binaryType: BinaryType
  readonly readyState: 0 | 1 | 2 | 3
  url: URL | null
  protocol: string | null
  /** Bytes queued by `send()` and not yet handed to the network. */
  readonly bufferedAmount: number
}

/** A message: text as a string, binary as an `ArrayBuffer` (a `Blob` after `binaryType = 'blob'`). */
export interface WSMessageEvent {
  readonly type: string
  readonly data: string | ArrayBuffer | Blob
}

/** The close: code, reason, and whether a close frame was exchanged (`1006` and false if not). */
export interface WSCloseEvent {
  readonly type: string
  readonly code: number
  readonly reason: string
  readonly wasClean: boolean
}

/** `open`, or an `error` event (then with the `error`). */
export interface WSEvent {
  readonly type: string
  readonly error?: unknown
}

/** A route's WebSocket events, as in Hono's `WSEvents`. */
export interface WSEvents {
  onOpen?(evt: WSEvent, ws: BridgeWSContext): void
  onMessage?(evt: WSMessageEvent, ws: BridgeWSContext): void
  onClose?(evt: WSCloseEvent, ws: BridgeWSContext): void
  onError?(evt: WSEvent, ws: BridgeWSContext): void
}

/** The `upgradeWebSocket` helper: the signature of Hono's WebSocket helpers (`hono/ws`). */
export interface BridgeUpgradeWebSocket {
  (
    createEvents: (c: Context) => WSEvents | Promise<WSEvents>,
    options?: UpgradeWebSocketOptions,
  ): MiddlewareHandler<any, string, { outputFormat: 'ws' }>
  (c: Context, events: WSEvents, options?: UpgradeWebSocketOptions): Promise<Response>
}

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
   * Where the bridge is mounted, when it cannot be found in `app`'s routers and sub-apps (it is
   * called from a function of yours, `app.use((req, res, next) => bridge(req, res, next))`). Upgrades
   * outside it go straight to the other upgrade listeners.
   * @default the mount path found in `app`'s routers and mounted sub-apps, else `''` (the whole server)
   * @example attachWebSockets(server, bridge, { wss, mountedAt: '/v2/api' })
   */
  mountedAt?: string | undefined
  /**
   * Receives errors nobody else gets: the app throwing for an upgrade (answered 500), a legacy
   * upgrade listener throwing after an asynchronous Hono decision, and handler errors of routes
   * without their own `onError`.
   * @default console.error
   * @example attachWebSockets(server, bridge, { wss, onError: (err) => log.error(err) })
   */
  onError?: ((err: unknown) => void) | undefined
}

/** What `attachWebSockets` returns. */
export interface WebSocketAttachment {
  /** Hono WebSockets open right now. */
  readonly connections: number
  /** Give the server back its own upgrade handling (open sockets stay open). */
  detach(): void
}
