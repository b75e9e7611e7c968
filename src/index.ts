export { fetchBridge } from './bridge/bridge.js'
export type {
  BridgeHandler,
  DispatchInfo,
  DispatchReason,
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
export type { ExpressRoutingOption } from './bridge/express-routing.js'
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
  TrialHold,
} from './migration/migration-report.js'
export { shadowTrial } from './shadow/shadow-trial.js'
// A type only: a trial is made by shadowTrial(), and works across the ESM and CJS copies (SHADOW_WRAP).
export type { ShadowTrial } from './shadow/shadow-trial.js'
export { DEFAULT_IGNORED_HEADERS } from './shadow/shadow-options.js'
export type { ShadowRouteRule, ShadowTrialOptions } from './shadow/shadow-options.js'
export type { ShadowDiff, ShadowResult, ShadowSide } from './shadow/shadow-result.js'
export type { DurationPercentiles, ShadowFieldCount, ShadowRouteStats, ShadowSkipReason } from './bridge/shadow-hook.js'
