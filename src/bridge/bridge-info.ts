import type { ExecutionContextLike, ResolvedOptions } from './options.js'
import { BRIDGE_INFO } from '../core/process-shared.js'
import type { TargetRouting } from '../core/routed-target.js'

/**
 * What a bridge was made from, so the migration report can find bridges in an Express stack (or be
 * handed a front-door bridge) and route the way they do, and attachWebSockets() can dispatch upgrades
 * by the same URL rules through the same app. Recorded once per bridge, never per request.
 */
export interface BridgeInfo {
  app: unknown
  /** The app's dispatch function as the bridge calls it (a Hono app's fall-through clone). */
  fetch: (request: Request, env: unknown, ctx: ExecutionContextLike) => unknown
  /** Its options, resolved; under `onDispatch`, `fallback` is the user's own (the bridge wraps it). */
  opts: ResolvedOptions
  ctx: ExecutionContextLike
  /** Under `expressRouting`: how a request in Express app `req.app` is matched (see express-routing.ts). */
  routing?: ((req: { app?: unknown }) => TargetRouting) | undefined
}

// A registered symbol (BRIDGE_INFO), not a module-level WeakMap: the server may load the CJS build
// while the CLI runs the ESM one (or another copy), and the bridge must still be recognised.
export function recordBridge<T extends object>(handler: T, info: BridgeInfo): T {
  Object.defineProperty(handler, BRIDGE_INFO, { value: Object.freeze(info) })
  return handler
}

export function bridgeInfo(handler: unknown): BridgeInfo | undefined {
  return typeof handler === 'function' ? (handler as { [BRIDGE_INFO]?: BridgeInfo })[BRIDGE_INFO] : undefined
}

/** The part of {@link BridgeInfo} that decides routing (what the migration report models). */
export interface BridgeRouting {
  app: unknown
  opts: Pick<ResolvedOptions, 'keepMountPath' | 'fallthrough' | 'fallback'> & Partial<Pick<ResolvedOptions, 'shadow'>>
  routing?: BridgeInfo['routing']
}
