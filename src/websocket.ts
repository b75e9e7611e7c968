/**
 * `express-fetch-bridge/websocket`: Hono `upgradeWebSocket` routes on a server that hosts the bridge.
 * A subpath of its own because its runtime needs the optional `ws` peer, which the root entry point
 * does not.
 */
export { attachWebSockets } from './websocket/websocket-attach.js'
export { upgradeWebSocket } from './websocket/websocket-helper.js'
export type {
  AttachWebSocketsOptions,
  BridgeUpgradeWebSocket,
  BridgeWSContext,
  WSCloseEvent,
  WSEvent,
  WSEvents,
  WSMessageEvent,
  UpgradeWebSocketOptions,
  WebSocketAttachment,
  WebSocketLike,
  WebSocketServerLike,
} from './websocket/websocket-types.js'
