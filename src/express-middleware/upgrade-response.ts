/**
 * Express middleware for a WebSocket upgrade. Node hands an upgrade over without a ServerResponse, but
 * the middleware a migrating app puts in front of everything (express-session, passport, a guard)
 * needs one to run. It gets a stand-in: a real ServerResponse on a socket that discards what is
 * written. If the middleware answers on it (a guard's 401), that status and those headers refuse the
 * upgrade; if it hands on, what it set on `res` joins the 101 (headers merged like any response's).
 */

import { IncomingMessage, ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'

/** An upgrade's env as the bridge's dispatcher builds it: the request, and no response. */
export function isUpgradeEnv(env: unknown): env is { incoming: IncomingMessage; outgoing: undefined } {
  const e = env as { incoming?: unknown; outgoing?: unknown } | null | undefined
  return (
    typeof e === 'object' &&
    e !== null &&
    e.outgoing === undefined &&
    e.incoming instanceof IncomingMessage &&
    e.incoming.headers.upgrade !== undefined
  )
}

// One stand-in per upgrade, shared by every expressMiddleware() it passes, as one `res` is in Express.
const standIns = new WeakMap<IncomingMessage, ServerResponse>()

/** A response nobody receives: `end()` completes (so 'finish' tells the chain it answered), bytes go nowhere. */
export function standInResponse(req: IncomingMessage): ServerResponse {
  let res = standIns.get(req)
  if (res !== undefined) return res
  res = new ServerResponse(req)
  standIns.set(req, res)
  const sink = new Duplex({
    write: (_chunk, _encoding, callback) => callback(),
    read() {},
  })
  res.assignSocket(sink as never)
  return res
}

/** Each header set on the stand-in, one `(name, value)` call per line (Set-Cookie lines apart). */
function eachHeader(res: ServerResponse, use: (name: string, value: string) => void): void {
  const set = res.getHeaders()
  for (const name of Object.keys(set)) {
    const value = set[name]
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [String(value)]) use(name, one)
  }
}

/** What the middleware answered on the stand-in, as the Response that refuses the upgrade (no body). */
export function refusalFrom(res: ServerResponse): Response {
  const headers = new Headers()
  eachHeader(res, (name, value) => headers.append(name, value))
  return new Response(null, { status: res.statusCode, headers })
}

/**
 * The middleware handed on: the headers it set on the stand-in that the handshake answer lacks join
 * it, as writeHead would have sent them beside a response's own (the answer's value wins; Set-Cookie
 * and Vary were merged before, by mergeOutgoingInto).
 */
export function joinStandIn(answer: Response, res: ServerResponse): void {
  const headers = answer.headers
  const own = new Set(headers.keys())
  eachHeader(res, (name, value) => {
    if (!own.has(name)) headers.append(name, value)
  })
}
