/**
 * Giving Node's req/res Express's request/response API, as an Express app does on entry: the
 * prototypes of the app (so its settings — trust proxy, query parser, json spaces… — apply),
 * `req.res`/`res.req`, `res.locals`, X-Powered-By, and for Express 4 the parsed `req.query`.
 */

import { createRequire } from 'node:module'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { forHttp1Code } from '../http2/http2-express.js'
import path from 'node:path'

/** What an Express app exposes that this module uses (Express 4 and 5 alike). */
export interface ExpressAppLike {
  (req: any, res: any, next?: any): void
  handle: (req: any, res: any, next?: any) => void
  set: (name: string, value?: unknown) => unknown
  get: (name: string) => any
  enabled: (name: string) => boolean
  request: object
  response: object
}

// undefined: not tried yet; null: express is not installed (Connect-only middleware still works).
let defaultApp: ExpressAppLike | null | undefined

/** The user's express, resolved next to this package (CJS) or the program (ESM). */
function loadExpress(): ((...args: unknown[]) => ExpressAppLike) | null {
  const bases: Array<() => NodeJS.Require> = []
  if (typeof require === 'function') bases.push(() => require)
  if (process.argv[1]) bases.push(() => createRequire(path.resolve(process.argv[1])))
  bases.push(() => createRequire(path.join(process.cwd(), 'index.js')))
  for (const base of bases) {
    try {
      const mod = base()('express')
      const express = typeof mod === 'function' ? mod : mod?.default
      if (typeof express === 'function') return express
    } catch {
      // not resolvable from here: try the next base
    }
  }
  return null
}

/** A default Express app for requests no app was given for, or null without express. */
export function defaultExpressApp(): ExpressAppLike | null {
  if (defaultApp === undefined) {
    const express = loadExpress()
    defaultApp = express === null ? null : express()
    // Hono answers these requests: do not advertise Express on them.
    defaultApp?.set('x-powered-by', false)
  }
  return defaultApp
}

/** For tests: forget the loaded default app (e.g. to simulate express not being installed). */
export function resetDefaultExpressApp(value?: ExpressAppLike | null): void {
  defaultApp = value
}

/** Prototypes to put back when the chain hands the request on (as Express does for a mounted app). */
export interface SavedPrototypes {
  req: object | null
  res: object | null
}

/**
 * Give req/res the API of `app`. Returns the prototypes they had when they were another app's
 * (middleware mode under a different app), else undefined: plain Node objects keep the Express API
 * for the rest of the request, so Hono handlers can use it through `c.env.incoming`.
 */
export function enterApp(app: ExpressAppLike, req: any, res: any): SavedPrototypes | undefined {
  const reqProto = Object.getPrototypeOf(req)
  if (reqProto === app.request) return undefined
  const saved = reqProto === IncomingMessage.prototype ? undefined : { req: reqProto, res: Object.getPrototypeOf(res) }
  if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express')
  req.res = res
  res.req = req
  Object.setPrototypeOf(req, app.request)
  Object.setPrototypeOf(res, app.response)
  if (!res.locals) res.locals = Object.create(null)
  req.baseUrl ??= ''
  // Express 5 parses req.query in a getter; Express 4 in its app's `query` middleware.
  if (!('query' in req)) {
    const parse = app.get('query parser fn')
    const url: string = req.url ?? ''
    const q = url.indexOf('?')
    req.query = typeof parse === 'function' ? parse(q === -1 ? '' : url.slice(q + 1)) : {}
  }
  return saved
}

export function leaveApp(saved: SavedPrototypes | undefined, req: object, res: object): void {
  if (saved === undefined) return
  Object.setPrototypeOf(req, saved.req)
  Object.setPrototypeOf(res, saved.res)
}

/**
 * Node bindings usable by Express middleware: node:http objects, or node:http2's compatibility objects
 * shaped for Express (http2/http2-express.ts) on the way.
 */
export function hasNodeBindings(env: unknown): env is { incoming: IncomingMessage; outgoing: ServerResponse } {
  const e = env as { incoming?: unknown; outgoing?: unknown } | null | undefined
  if (typeof e !== 'object' || e === null) return false
  if (e.incoming instanceof IncomingMessage && e.outgoing instanceof ServerResponse) return true
  if (!(e.incoming instanceof Http2ServerRequest && e.outgoing instanceof Http2ServerResponse)) return false
  forHttp1Code(e.incoming as unknown as IncomingMessage, e.outgoing as unknown as ServerResponse)
  return true
}
