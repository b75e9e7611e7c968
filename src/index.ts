export { fetchBridge } from './bridge.js'
export type {
  BridgeHandler,
  ExecutionContextLike,
  ExpressBindings,
  FallbackHandler,
  FetchApp,
  FetchBridgeOptions,
  HttpBindings,
  NextFunction,
} from './options.js'
export { LightResponse, installGlobalResponse, OriginalResponse } from './response.js'
export { BadRequestError } from './errors.js'
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
