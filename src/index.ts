export { fetchBridge, type BridgeHandler } from './bridge.js'
export type {
  ExecutionContextLike,
  ExpressBindings,
  FetchApp,
  FetchBridgeOptions,
  HttpBindings,
  NextFunction,
} from './options.js'
export { LightResponse, installGlobalResponse, OriginalResponse } from './response.js'
export { BadRequestError } from './request.js'
