/**
 * Methods node:http parses that the platform's Request refuses (fetch's forbidden methods: "'TRACE'
 * HTTP method is unsupported"). A Request for one is built as a bodiless GET whose `method`, and its
 * clones' and copies', reads the real one, so an app that materialises `c.req.raw` (`clone()`,
 * `new Request(c.req.raw)`) gets the request it was sent. (TRACE carries no body, RFC 9110 9.3.8.)
 */

import { PlatformRequest } from '../core/platform.js'

const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** Whether the platform's Request refuses `method`. */
export function isForbiddenMethod(method: string): boolean {
  return FORBIDDEN.has(method.toUpperCase())
}

/** `new Request(url, init)`, with a forbidden method kept as above. */
export function platformRequest(url: string, init: RequestInit): Request {
  const method = init.method
  if (method === undefined || !isForbiddenMethod(method)) return new PlatformRequest(url, init)
  return keepMethod(new PlatformRequest(url, { ...init, method: 'GET', body: null }), method)
}

/** A Request built from `input` (a copy or clone) keeps the forbidden method `input` reads. */
export function keepForbiddenMethod(request: Request, input: unknown, init: RequestInit | undefined): void {
  if (init?.method !== undefined || typeof input !== 'object' || input === null) return
  const descriptor = Object.getOwnPropertyDescriptor(input, 'method')
  const method = descriptor?.get?.call(input) as unknown
  if (typeof method === 'string' && isForbiddenMethod(method)) keepMethod(request, method)
}

function keepMethod(request: Request, method: string): Request {
  const clone = request.clone
  Object.defineProperty(request, 'method', { get: () => method, configurable: true })
  Object.defineProperty(request, 'clone', {
    value: function (this: Request) {
      return keepMethod(clone.call(this), method)
    },
    configurable: true,
    writable: true,
  })
  return request
}
