export { fetchBridge } from './bridge/bridge.js'
export type {
  BridgeHandler,
  DispatchInfo,
  DispatchSide,
  ExecutionContextLike,
  ExpressBindings,
  FallbackHandler,
  FetchApp,
  FetchBridgeOptions,
  HonoMiddleware,
  HttpBindings,
  NextFunction,
} from './bridge/options.js'
export type { Http2ListenOptions } from './http2/http2-listen.js'
export { LightResponse, installGlobalResponse, OriginalResponse } from './response/response.js'
export { BadRequestError } from './core/errors.js'
export { expressMiddleware } from './express-middleware/express-middleware.js'
export type {
  ExpressIncoming,
  ExpressMiddleware,
  ExpressMiddlewareEnv,
  ExpressMiddlewareHandler,
  ExpressMiddlewareOptions,
} from './express-middleware/express-middleware.js'
export { RESPONSE_ALREADY_SENT } from './core/already-sent.js'
export { migrationReport } from './migration/migration-report.js'
export type { MigrationReport } from './migration/migration-report.js'
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
} from './migration/migration-report.js'
