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
  /** `0` connecting, `1` open, `2` closing, `3` closed. */
  readonly readyState: 0 | 1 | 2 | 3
  /** The subprotocol the server chose, `''` for none. */
  readonly protocol: string
  /** Bytes queued by `send()` and not yet handed to the network: the backpressure gauge. */
  readonly bufferedAmount: number
  /**
   * Sends a message: a string as text, bytes as binary. `compress` applies with `perMessageDeflate`; `cb`
   * is called once the data is written, or with the error.
   */
  send(
    data: string | ArrayBufferLike | ArrayBufferView,
    options?: { compress?: boolean },
    cb?: (err?: Error) => void,
  ): void
  /** Starts the closing handshake with this code and reason. */
  close(code?: number, reason?: string | Buffer): void
  /** Destroys the connection at once, without a closing handshake. */
  terminate(): void
  /** Each message received: `isBinary` false for text (`data` then holds its UTF-8 bytes). */
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this
  /** The connection closed, with the close code and reason (`1006` when no close frame came). */
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this
  /** A socket error, such as a message over `maxPayload` or an invalid frame. */
  on(event: 'error', listener: (err: Error) => void): this
  /** Like `on('close')`, but the listener runs once. */
  once(event: 'close', listener: (code: number, reason: Buffer) => void): this
}

/** The part of a `ws` WebSocketServer the bridge uses: one made with `{ noServer: true }`. */
export interface WebSocketServerLike {
  /** The options the server was created with: `attachWebSockets()` requires `noServer: true`. */
  options: { noServer?: boolean | undefined }
  /** Completes the handshake on `socket` and calls `callback` with the open WebSocket. */
  handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (ws: any, request: IncomingMessage) => void,
  ): void
  /** Listens to the handshake's response lines before they are sent: the bridge adds the Hono middleware's headers. */
  on(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): this
  /** Removes a `'headers'` listener. */
  off(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): this
  /** Emitted by the bridge for every Hono socket it opens, so the server's `'connection'` listeners see it. */
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
  /**
   * Sends a message: a string as text, an `ArrayBuffer` or `Uint8Array` as binary. `compress` applies when
   * the `ws` server has `perMessageDeflate`.
   * @example ws.send(JSON.stringify({ type: 'hello' }))
   */
  send(source: string | ArrayBuffer | Uint8Array, options?: { compress?: boolean }): void
  /**
   * Closes the connection with this code and reason (a closing handshake; `onClose` follows).
   * @example ws.close(1000, 'bye')
   */
  close(code?: number, reason?: string): void
  /** The `ws` WebSocket. */
  raw?: WebSocketLike
  /** How binary messages arrive: `ArrayBuffer` (default) or `Blob`. */
  binaryType: BinaryType
  /** `0` connecting, `1` open, `2` closing, `3` closed (as `WebSocket.readyState`). */
  readonly readyState: 0 | 1 | 2 | 3
  /** The URL of the upgrade request as the route saw it (`c.req.url`). */
  url: URL | null
  /** The subprotocol the server chose (`ws`'s `handleProtocols`), `''` for none. */
  protocol: string | null
  /** Bytes queued by `send()` and not yet handed to the network. */
  readonly bufferedAmount: number
}

/** A message: text as a string, binary as an `ArrayBuffer` (a `Blob` after `binaryType = 'blob'`). */
export interface WSMessageEvent {
  /** `'message'`. */
  readonly type: string
  /** The message: a string for text, an `ArrayBuffer` for binary (a `Blob` after `ws.binaryType = 'blob'`). */
  readonly data: string | ArrayBuffer | Blob
}

/** The close: code, reason, and whether a close frame was exchanged (`1006` and false if not). */
export interface WSCloseEvent {
  /** `'close'`. */
  readonly type: string
  /** The close code: `1000` normal, `1001` going away (`server.close()`), `1006` closed without a close frame. */
  readonly code: number
  /** The reason sent with the close frame, `''` for none. */
  readonly reason: string
  /** False when the connection ended without a close frame (code `1006`). */
  readonly wasClean: boolean
}

/** `open`, or an `error` event (then with the `error`). */
export interface WSEvent {
  /** `'open'` or `'error'`. */
  readonly type: string
  /** For `'error'`: the socket error (a message over `maxPayload`, an invalid frame); undefined for `'open'`. */
  readonly error?: unknown
}

/** A route's WebSocket events, as in Hono's `WSEvents`. */
export interface WSEvents {
  /** The handshake is done and the socket open: `ws.send()` works from here. */
  onOpen?(evt: WSEvent, ws: BridgeWSContext): void
  /** A message from the client (`evt.data`: string for text, `ArrayBuffer` or `Blob` for binary). */
  onMessage?(evt: WSMessageEvent, ws: BridgeWSContext): void
  /** The connection closed, by either side or lost (`evt.code`, `evt.reason`, `evt.wasClean`). */
  onClose?(evt: WSCloseEvent, ws: BridgeWSContext): void
  /**
   * A socket error (`evt.error`): a message over `maxPayload`, an invalid frame. What the handlers throw
   * goes to the route's `onError` option (else attachWebSockets()'s) instead.
   */
  onError?(evt: WSEvent, ws: BridgeWSContext): void
}

/** The `upgradeWebSocket` helper: the signature of Hono's WebSocket helpers (`hono/ws`). */
export interface BridgeUpgradeWebSocket {
  /**
   * As middleware: `createEvents(c)` gives the route's events; a request that is not a WebSocket upgrade
   * goes on to the next handler.
   */
  (
    createEvents: (c: Context) => WSEvents | Promise<WSEvents>,
    options?: UpgradeWebSocketOptions,
  ): MiddlewareHandler<any, string, { outputFormat: 'ws' }>
  /** Inside a handler: upgrade this request with these events; rejects when it is not a WebSocket upgrade. */
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
