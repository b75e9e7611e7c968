/**
 * A front-door Hono route reading `c.env.incoming.session` when no session middleware ran for it:
 * front-door requests reach Hono before Express, so the session Express would have loaded is not
 * there. Instead of `Cannot read properties of undefined`, the read throws an error saying what to add.
 *
 * How: once a front-door bridge over a Hono app exists, `session` on node:http's request prototype is
 * an accessor that answers `undefined` (as an absent property does) except while a front-door request
 * is inside the Hono app, and that a session middleware assigning `req.session` turns into a plain own
 * property and lifts the mark. `expressMiddleware()` lifts the mark while its chain runs (express-session asks whether a
 * session is already there), and the bridge lifts it when it hands the request to the fallback.
 */
import { IncomingMessage } from 'node:http'
import { IN_FRONT_DOOR, SESSION_GUARD as OURS } from '../core/process-shared.js'

const MESSAGE =
  'express-fetch-bridge: c.env.incoming.session is not set. In front-door mode Hono routes run before Express, ' +
  "so Express's session middleware has not run for this request: run it in the Hono app, " +
  'hono.use(expressMiddleware(session({ ... }))) (see expressMiddleware), or serve this route in middleware mode, ' +
  'app.use(fetchBridge(hono)) after app.use(session(...))'

function get(this: Record<PropertyKey, unknown>): undefined {
  if (this[IN_FRONT_DOOR] === true) throw new Error(MESSAGE)
  return undefined
}
function set(this: Record<PropertyKey, unknown>, value: unknown): void {
  Object.defineProperty(this, 'session', { value, writable: true, configurable: true, enumerable: true })
  // A session middleware ran: from now on an absent session is its answer (express-session's destroy()
  // deletes req.session, then its own response hooks read it), not a missing middleware.
  if (this[IN_FRONT_DOOR] === true) this[IN_FRONT_DOOR] = false
}
Object.defineProperty(get, OURS, { value: true })

/**
 * Install the accessor; an earlier copy's is replaced by this one (the same code: its Error is then
 * of the realm a test runner's module registry gives the app), someone else's `session` is left alone.
 */
export function guardFrontDoorSession(): void {
  const proto = IncomingMessage.prototype
  const existing = Object.getOwnPropertyDescriptor(proto, 'session')
  if (existing !== undefined && (existing.get as { [OURS]?: true } | undefined)?.[OURS] !== true) return
  if (existing?.get === get) return
  Object.defineProperty(proto, 'session', { configurable: true, enumerable: false, get, set })
}
