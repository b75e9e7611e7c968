/**
 * A request a Hono route matched that still went on to Express: its handler returned no Response
 * (without middleware Hono then runs its not-found handler, which the bridge turns into a hand-on),
 * or handed it on with `next()` or `c.notFound()`. The newcomer's missing `return` is otherwise
 * silent: Express answers, and the route looks dead. `onDispatch` reports the route and the reason,
 * and a process warning names the route, once per route.
 */
import type { IncomingMessage } from 'node:http'
import { isMiddleware } from '../core/hono-routes.js'
import { matchedRoutesOf, notFoundContext } from './fallthrough.js'

/** Set on the request: the route pattern that matched, and why the request went on. */
export const FELL_THROUGH: unique symbol = Symbol('express-fetch-bridge/fell-through')

export interface FellThrough {
  route: string
  reason: 'no-response'
}

const warned = new Set<string>()

export function noteFellThrough(req: IncomingMessage, env: object): void {
  const c = notFoundContext(env) as { req: { method: string; path: string } } | undefined
  const route = matchedRoutesOf(c).find((r) => !isMiddleware(r.handler))
  if (route === undefined) return
  ;(req as IncomingMessage & { [FELL_THROUGH]?: FellThrough })[FELL_THROUGH] = {
    route: route.path,
    reason: 'no-response',
  }
  const key = `${route.method} ${route.path}`
  if (warned.has(key)) return
  warned.add(key)
  process.emitWarning(
    `express-fetch-bridge: Hono route ${key} matched ${c!.req.method} ${c!.req.path} but gave no Response ` +
      '(a handler without `return`, or next() / c.notFound()), so the request went on to Express. ' +
      'Warned once per route.',
    { code: 'EXPRESS_FETCH_BRIDGE_NO_RESPONSE' },
  )
}
