/**
 * Canary traffic: which requests of a route Hono answers (a share, sticky by a key), and the dispatch
 * wrapper that turns a failed Hono answer to a safe request into a fall-through to Express.
 */
import type { IncomingMessage } from 'node:http'
import { isThenable } from '../core/app-kinds.js'
import type { ExecutionContextLike } from '../bridge/options.js'
import { noteDispatchReason } from '../bridge/on-dispatch.js'
import type { ResolvedRule } from './shadow-options.js'
import type { RouteStats } from './stats.js'

/** Set on a canary request: its route's aggregates, for the fallback count. */
export const CANARY_STATS: unique symbol = Symbol('express-fetch-bridge/canary-stats')

type Fetch = (request: Request, env: any, ctx: ExecutionContextLike) => unknown

/** FNV-1a: a stable bucket per key, the same in every process of a cluster. */
function bucket(key: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) % 10000
}

/** Whether Hono answers this request: in the rule's share, by its key's bucket or at random. */
export function inCanary(rule: ResolvedRule, req: IncomingMessage, route: string): boolean {
  if (rule.canary >= 10000) return true
  let key: string | undefined
  if (rule.canaryKey !== undefined) {
    try {
      key = rule.canaryKey(req)
    } catch {
      key = undefined
    }
  }
  const at = typeof key === 'string' ? bucket(`${route}\n${key}`) : Math.floor(Math.random() * 10000)
  return at < rule.canary
}

function fellBack(env: { incoming?: IncomingMessage }): undefined {
  const req = env.incoming as (IncomingMessage & { [CANARY_STATS]?: RouteStats }) | undefined
  if (req !== undefined) {
    const stats = req[CANARY_STATS]
    if (stats !== undefined) stats.canary.fallbacks++
    noteDispatchReason(req, 'canary-fallback')
  }
  // "Not mine": the bridge hands the request on to Express, as for an unmatched route.
  return undefined
}

function checked(response: unknown, env: { incoming?: IncomingMessage }): unknown {
  const status = (response as { status?: unknown } | null)?.status
  if (typeof status !== 'number' || status < 500) return response
  ;(response as Response).body?.cancel().catch(() => {})
  return fellBack(env)
}

/**
 * The canary's dispatch (see bridge/shadow-hook.ts MakeBridge): 5xx answers and exceptions become
 * "not mine", for the bridge to hand on to Express before any byte is sent.
 */
export function fallingBack(fetch: Fetch): Fetch {
  return function canaryDispatch(request, env, ctx) {
    let result: unknown
    try {
      result = fetch(request, env, ctx)
    } catch {
      return fellBack(env)
    }
    if (!isThenable(result)) return checked(result, env)
    return Promise.resolve(result).then(
      (response) => checked(response, env),
      () => fellBack(env),
    )
  }
}
