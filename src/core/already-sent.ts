import { PlatformResponse as OriginalResponse } from './platform.js'

/**
 * The "already answered" convention shared with @hono/node-server: a bodiless Response carrying this
 * header tells the host that the handler (or Express middleware) wrote to `c.env.outgoing` itself.
 */
export const ALREADY_SENT_HEADER = 'x-hono-already-sent'

/** A fresh marker; the platform's class, so @hono/node-server takes it for its own marker too. */
export function alreadySent(): Response {
  return new OriginalResponse(null, { headers: { [ALREADY_SENT_HEADER]: 'true' } })
}

/**
 * Return this from a Hono handler that answered through `c.env.outgoing` itself: the bridge then
 * writes nothing (same form as @hono/node-server's `RESPONSE_ALREADY_SENT`, which is accepted too).
 * @example
 * hono.get('/raw', (c) => {
 *   c.env.outgoing.end('written by hand')
 *   return RESPONSE_ALREADY_SENT
 * })
 */
export const RESPONSE_ALREADY_SENT: Response = alreadySent()
