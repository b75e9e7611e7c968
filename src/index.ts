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
