/**
 * `express-fetch-bridge/websocket`: Hono `upgradeWebSocket` routes on a server that hosts the bridge.
 * A subpath of its own because its types build on `hono/ws`, whose declarations need the DOM lib,
 * and its runtime needs the optional `ws` peer: the root entry point needs neither.
 */
export { attachWebSockets } from './websocket-attach.js'
export { upgradeWebSocket } from './websocket-helper.js'
export type {
  AttachWebSocketsOptions,
  BridgeUpgradeWebSocket,
  UpgradeWebSocketOptions,
  WebSocketAttachment,
  WebSocketLike,
  WebSocketServerLike,
} from './websocket-types.js'
