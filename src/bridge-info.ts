import type { FallbackHandler } from './options.js'

/**
 * What a bridge was made from, so the migration report can find bridges in an Express stack (or be
 * handed a front-door bridge) and route the way they do. Recorded once per bridge, never per request.
 */
export interface BridgeInfo {
  app: unknown
  keepMountPath: boolean
  fallthrough: boolean
  fallback: FallbackHandler | undefined
}

const bridges = new WeakMap<object, BridgeInfo>()

export function recordBridge<T extends object>(handler: T, info: BridgeInfo): T {
  bridges.set(handler, info)
  return handler
}

export function bridgeInfo(handler: unknown): BridgeInfo | undefined {
  return typeof handler === 'function' ? bridges.get(handler) : undefined
}
