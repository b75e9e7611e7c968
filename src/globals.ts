import { installGlobalResponse } from './response.js'
import type { RequestInfo } from './fetch-types.js'
import { defineGlobal } from './process-shared.js'

/**
 * The globals the bridge installs unless `overrideGlobalObjects: false`: the lightweight Response,
 * and a `Request` and `fetch` that accept the lazy Request wherever the platform's accept a Request
 * (`new Request(c.req.raw, init)`, `fetch(c.req.raw)`). The platform's own constructor reads internal
 * slots that only a real Request has, so these hand it the real Request the lazy one stands for.
 */

/** Method of the lazy Request returning its real Request; shared by every copy of the module (ESM/CJS). */
export const REAL_REQUEST: unique symbol = Symbol.for('express-fetch-bridge/real-request') as any

const INSTALLED = Symbol.for('express-fetch-bridge/request-global')

/** The platform's Request, captured before anything could replace the global. */
const PlatformRequest: typeof Request = globalThis.Request

function real(input: unknown): unknown {
  return typeof input === 'object' && input !== null && REAL_REQUEST in input ? (input as { [REAL_REQUEST](): Request })[REAL_REQUEST]() : input
}

class BridgeRequest extends PlatformRequest {
  /** True for real Requests and lazy ones, as with the platform's class. */
  static override [Symbol.hasInstance](this: Function, value: unknown): boolean {
    // Subclasses (`class X extends Request`) keep the ordinary prototype-chain check.
    if (this !== BridgeRequest) return Function.prototype[Symbol.hasInstance].call(this, value)
    return value instanceof PlatformRequest
  }

  constructor(...args: ConstructorParameters<typeof Request>) {
    if (args.length > 0) args[0] = real(args[0]) as RequestInfo
    super(...args)
  }
}
Object.defineProperty(BridgeRequest, 'name', { value: 'Request' })
Object.defineProperty(BridgeRequest, INSTALLED, { value: true })

function wrapFetch(platformFetch: typeof fetch): typeof fetch {
  return Object.defineProperty(
    function fetch(...args: Parameters<typeof globalThis.fetch>): Promise<Response> {
      if (args.length > 0) args[0] = real(args[0]) as RequestInfo
      return platformFetch(...args)
    },
    INSTALLED,
    { value: true },
  )
}

let installed = false

/** Install the global Response, Request and fetch (idempotent; once per process across module copies). */
export function installGlobals(): void {
  if (installed) return
  installed = true
  installGlobalResponse()
  if ((globalThis.Request as unknown as Record<symbol, unknown>)[INSTALLED] !== true) defineGlobal('Request', BridgeRequest)
  const current = globalThis.fetch
  if (typeof current === 'function' && (current as unknown as Record<symbol, unknown>)[INSTALLED] !== true) defineGlobal('fetch', wrapFetch(current))
}
