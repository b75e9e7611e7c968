import { installGlobalResponse } from '../response/response.js'
import type { RequestInfo } from '../core/fetch-types.js'
import { defineGlobal, GLOBAL_INSTALLED, REAL_REQUEST } from '../core/process-shared.js'
import { PlatformRequest } from '../core/platform.js'
import { keepForbiddenMethod } from '../request/forbidden-method.js'
import { LightHeaders } from '../core/light-headers.js'

/**
 * The globals the bridge installs unless `overrideGlobalObjects: false`: the lightweight Response
 * and Headers, and a `Request` and `fetch` that accept the lazy Request wherever the platform's accept a Request
 * (`new Request(c.req.raw, init)`, `fetch(c.req.raw)`). The platform's own constructor reads internal
 * slots that only a real Request has, so these hand it the real Request the lazy one stands for.
 */

function real(input: unknown): unknown {
  return typeof input === 'object' && input !== null && REAL_REQUEST in input
    ? (input as { [REAL_REQUEST](): Request })[REAL_REQUEST]()
    : input
}

/**
 * A Request class over `Base` (the platform's, or whatever another adapter installed, such as
 * @hono/node-server's): it swaps a lazy Request for its real one and hands everything else to `Base`,
 * which may unwrap its own lightweight requests the same way.
 */
function bridgeRequestOver(Base: typeof Request): typeof Request {
  class BridgeRequest extends Base {
    /** True for real Requests and lazy ones, as with the class it extends. */
    static override [Symbol.hasInstance](this: unknown, value: unknown): boolean {
      // Subclasses (`class X extends Request`) keep the ordinary prototype-chain check.
      if (this !== BridgeRequest) return Function.prototype[Symbol.hasInstance].call(this, value)
      return value instanceof Base
    }

    constructor(...args: ConstructorParameters<typeof Request>) {
      if (args.length > 0) args[0] = real(args[0]) as RequestInfo
      super(...args)
      keepForbiddenMethod(this, args[0], args[1])
    }
  }
  Object.defineProperty(BridgeRequest, 'name', { value: 'Request' })
  Object.defineProperty(BridgeRequest, 'length', { value: Base.length }) // the platform's (rest parameters say 0)
  Object.defineProperty(BridgeRequest, GLOBAL_INSTALLED, { value: true })
  return BridgeRequest
}

function wrapFetch(platformFetch: typeof fetch): typeof fetch {
  const wrapped = Object.defineProperty(
    function fetch(...args: Parameters<typeof globalThis.fetch>): Promise<Response> {
      if (args.length > 0) args[0] = real(args[0]) as RequestInfo
      return platformFetch(...args)
    },
    GLOBAL_INSTALLED,
    { value: true },
  )
  // The platform's length (rest parameters say 0).
  return Object.defineProperty(wrapped, 'length', { value: platformFetch.length })
}

let installed = false
/** The global Request as this copy last left it: another adapter replacing it is seen by one comparison. */
let installedRequest: unknown

/**
 * Install the global Response, Headers, Request and fetch (once per process across module copies). Called on
 * every request: if another adapter (@hono/node-server's `serve`, `getRequestListener`) replaced the
 * global Request since, a Request over that one is installed, so both adapters' requests can be re-wrapped.
 */
export function installGlobals(): void {
  if (globalThis.Request === installedRequest) return
  const current = globalThis.Request
  if ((current as unknown as Record<symbol, unknown>)[GLOBAL_INSTALLED] !== true) {
    defineGlobal('Request', bridgeRequestOver(current ?? PlatformRequest))
  }
  installedRequest = globalThis.Request
  if (installed) return
  installed = true
  installGlobalResponse()
  // Hono's context builds a Headers for every response middleware touches (`c.header()`, cors,
  // secure-headers): the Map-backed one, which the platform's classes and fetch read as any HeadersInit.
  if (globalThis.Headers !== LightHeaders) defineGlobal('Headers', LightHeaders)
  const fetch = globalThis.fetch
  if (typeof fetch === 'function' && (fetch as unknown as Record<symbol, unknown>)[GLOBAL_INSTALLED] !== true)
    defineGlobal('fetch', wrapFetch(fetch))
}
