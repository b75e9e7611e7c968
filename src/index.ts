export { fetchBridge } from './bridge.js'
export type {
  BridgeHandler,
  DispatchInfo,
  DispatchSide,
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
export { expressMiddleware } from './express-middleware.js'
export type {
  ExpressIncoming,
  ExpressMiddleware,
  ExpressMiddlewareEnv,
  ExpressMiddlewareHandler,
  ExpressMiddlewareOptions,
} from './express-middleware.js'
export { RESPONSE_ALREADY_SENT } from './already-sent.js'
export { migrationReport } from './migration-report.js'
export type { MigrationReport } from './migration-report.js'
export type {
  BridgeEntry,
  ExpressRouteEntry,
  ExpressRouteStatus,
  HonoRouteEntry,
  HonoRouteStatus,
  MigrationReportOptions,
  MigrationSummary,
  PartlyMovedPath,
  SampleResult,
} from './migration-report.js'
