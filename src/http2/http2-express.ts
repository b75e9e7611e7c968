/**
 * An HTTP/2 exchange handed to HTTP/1.1 code behind the bridge (the front door's Express fallback).
 * Express 4 and 5 replace the prototype of `req` and `res` with their own, which inherit from
 * node:http's IncomingMessage and ServerResponse: on node:http2's compatibility objects every member
 * those define (`url`, `headers`, `writeHead`, `end`…) then reads state that is not there. Made own
 * properties of the objects, node:http2's members survive that swap, and Express's own methods
 * (`req.hostname`, `res.send`…) run on top of them. `req.headers` is shown without pseudo-headers, as
 * HTTP/1.1 code expects it (its Host comes from `:authority`: see http2-exchange.ts).
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { Readable } from 'node:stream'

const SHAPED = Symbol('express-fetch-bridge/http1-shaped')

type Member = [string | symbol, PropertyDescriptor]

function members(proto: object, extra: Record<string, PropertyDescriptor>): Member[] {
  // Symbol-keyed members too: node:http2's public methods call its internal ones.
  const out: Member[] = Reflect.ownKeys(proto)
    .filter((name) => name !== 'constructor')
    .map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)!])
  for (const [name, descriptor] of Object.entries(extra)) out.push([name, descriptor])
  return out
}

const REQUEST_MEMBERS = members(Http2ServerRequest.prototype, {
  // IncomingMessage's would destroy the socket, which node:http2 shares between all streams.
  _destroy: { configurable: true, writable: true, value: Readable.prototype._destroy },
})
const RESPONSE_MEMBERS = members(Http2ServerResponse.prototype, {})

function own(target: object, list: Member[]): void {
  for (const [name, descriptor] of list) {
    // Members the bridge already made own (writeHead, complete…) are kept.
    if (!Object.prototype.hasOwnProperty.call(target, name)) Object.defineProperty(target, name, descriptor)
  }
}

/** Shape an HTTP/2 request and response (prepared by fromHttp2) for HTTP/1.1 code; idempotent. */
export function forHttp1Code(req: IncomingMessage, res: ServerResponse): void {
  const r = req as IncomingMessage & { [SHAPED]?: true }
  if (r[SHAPED] === true) return
  r[SHAPED] = true
  const headers: Record<string, string | string[] | undefined> = {}
  const all = req.headers
  for (const name of Object.keys(all)) if (name.charCodeAt(0) !== 58 /* ':' */) headers[name] = all[name]
  const raw = req.rawHeaders.filter((_, i, list) => list[i - (i % 2)].charCodeAt(0) !== 58)
  own(req, REQUEST_MEMBERS)
  Object.defineProperty(req, 'headers', { configurable: true, writable: true, value: headers })
  Object.defineProperty(req, 'rawHeaders', { configurable: true, writable: true, value: raw })
  own(res, RESPONSE_MEMBERS)
}
