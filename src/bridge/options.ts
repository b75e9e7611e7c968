import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Http2SecureServer, Http2Server } from 'node:http2'
import type { Http2ListenOptions } from '../http2/http2-listen.js'
import { DEFAULT_DRAIN, type DrainBounds } from '../request/drain.js'
import { REPLAY_LIMIT } from '../request/body-read.js'
import { resolveExpressRouting, type ExpressRoutingOption, type ResolvedRouting } from './express-routing.js'
import { refuseOriginWithPath, refuseUnknownOptions } from './start-up-checks.js'
import { isShadowHook, type ShadowHook } from './shadow-hook.js'
// @ts-ignore -- express is an optional peer: without its types these are `any` and the fallbacks below apply
import type { Request as ExpressRequestType, Response as ExpressResponseType } from 'express'

/**
 * A Fetch-API application: a Hono app, any object with a `fetch(request, env, ctx)` method, or
 * such a function itself. Returning `undefined` or `null` means "not mine" (the request falls through).
 * Pass a Hono app itself, not `app.fetch`: `fetchBridge(app.fetch)` throws a `TypeError` at start-up
 * unless `fallthrough: false` (from its fetch function the app's not-found handling cannot be reached).
 */
export type FetchApp =
  | ((request: Request, env: any, ctx: ExecutionContextLike) => unknown)
  | { fetch: (request: Request, env: any, ctx: ExecutionContextLike) => unknown }

/** The `ctx` argument passed to the app (Hono exposes it as `c.executionCtx`). */
export interface ExecutionContextLike {
  /** Keeps a background task alive; its rejection is reported instead of becoming unhandled. */
  waitUntil(promise: Promise<unknown>): void
  /** Accepted for compatibility with Workers-style apps; errors always go to `next(err)`. */
  passThroughOnException(): void
  /** Workers-style `ctx.props`, for compatibility: always an empty, frozen object under the bridge. */
  props: Record<string, unknown>
}

/** The bindings every request gets as `env` (same shape as @hono/node-server's `HttpBindings`). */
export interface HttpBindings {
  /** The node:http request (`c.env.incoming`): the same object Express or node:http passed to the bridge. */
  incoming: IncomingMessage
  /**
   * The node:http response (`c.env.outgoing`), which the bridge writes the app's Response onto. A handler
   * that writes to it itself returns `RESPONSE_ALREADY_SENT`. `undefined` for a WebSocket upgrade
   * (`attachWebSockets()`), which has no response.
   */
  outgoing: ServerResponse
}

/**
 * `Fallback` when `T` is `any` or an unresolved import, else `T`. (The usual `0 extends 1 & T` test
 * does not catch an unresolved import; a distributive conditional over `any` yields `boolean` for both.)
 */
export type OrFallback<T, Fallback> = boolean extends (T extends never ? true : false) ? Fallback : T

/**
 * The bindings under Express: `c.env.incoming` is the Express Request (with whatever auth or session
 * middleware added to it through declaration merging, e.g. `req.user`, `req.session`) and
 * `c.env.outgoing` the Express Response. Without `@types/express` installed they fall back to the
 * node:http types.
 * @example
 * const hono = new Hono<{ Bindings: ExpressBindings }>()
 * hono.get('/me', (c) => c.json(c.env.incoming.user))
 */
export interface ExpressBindings {
  /**
   * The Express Request (`c.env.incoming`), with what middleware before the bridge added to it (`req.user`,
   * `req.session`, a parsed `req.body`). For a WebSocket upgrade it is the plain node:http request:
   * Express's own middleware in front of the bridge does not run for upgrades.
   */
  incoming: OrFallback<ExpressRequestType, IncomingMessage>
  /**
   * The Express Response (`c.env.outgoing`), which the bridge writes the app's Response onto. A handler
   * that writes to it itself returns `RESPONSE_ALREADY_SENT`. `undefined` for a WebSocket upgrade
   * (`attachWebSockets()`), which has no response.
   */
  outgoing: OrFallback<ExpressResponseType, ServerResponse>
}

/** Connect-style `next`. */
export type NextFunction = (err?: unknown) => void

/**
 * What front-door mode hands unmatched requests to: any node:http listener, such as an Express or
 * Connect app. `next` is only passed when the bridge is itself mounted as middleware (then an Express
 * Router works too); loosely typed so Express's own handler types are accepted.
 */
export type FallbackHandler = (req: any, res: any, next?: any) => void

/**
 * What `fetchBridge` returns: Express 4/5 or Connect middleware, or a node:http listener
 * (front-door mode with `fallback`).
 */
export interface BridgeHandler {
  (req: IncomingMessage, res: ServerResponse, next?: NextFunction): void
  /**
   * `http.createServer(bridge).listen(...args)`: takes the arguments of `server.listen()` and returns
   * the listening `http.Server` (like Express's `app.listen`). A listen error (port in use) is the
   * server's `'error'` event, never passed to the callback. For HTTPS use
   * `https.createServer(tlsOptions, bridge)`. With `{ http2 }`: an HTTP/2 server (h2 over TLS with
   * HTTP/1.1 on the same port, or cleartext h2c; see {@link Http2ListenOptions}) whose `close()` sends
   * GOAWAY to every open session.
   * @example
   * const server = fetchBridge(hono, { fallback: expressApp }).listen(3000, () => console.log('ready'))
   * @example
   * fetchBridge(hono, { fallback: expressApp }).listen({ port: 8443, http2: { key, cert } })
   */
  listen: ((options: Http2ListenOptions, listening?: () => void) => Http2SecureServer | Http2Server) & Server['listen']
}

/**
 * Who answered a request that reached the bridge: `'hono'` (a route of the app), `'express'` (no
 * route matched: handed to `next()`, the Express routes behind the bridge), `'fallback'` (handed to
 * the front-door `fallback`), `'none'` (no route and nothing behind: the bridge's own 404).
 */
export type DispatchSide = 'hono' | 'express' | 'fallback' | 'none'

/**
 * Why that side answered: `'route'` (a Hono route matched), `'no-route'` (none did), and under the
 * `shadow` option `'shadow'` (Express answered, Hono ran as a shadow if sampled), `'canary'` (Hono answered as
 * the route's canary share), `'holdback'` (Express answered a route under trial without a shadow run:
 * outside the canary share, or a method not shadowed), `'canary-fallback'`
 * (Hono's canary answer was a 5xx or threw before any byte was sent; Express answered instead), and
 * `'no-response'` (a Hono route matched but its handler gave no Response: a missing `return`, or
 * `next()` / `c.notFound()`; the request went on to Express).
 */
export type DispatchReason = 'route' | 'no-route' | 'no-response' | 'shadow' | 'canary' | 'holdback' | 'canary-fallback'

/** What `onDispatch` receives, once per request, when the response is finished or the connection closed. */
export interface DispatchInfo {
  /**
   * Who served the request: `'hono'`, `'express'` (fell through to `next()`), `'fallback'` or `'none'`
   * (see {@link DispatchSide}). An error the app passed on to `next(err)` counts as `'hono'`.
   */
  side: DispatchSide
  /** Why that side answered (see {@link DispatchReason}). */
  readonly reason: DispatchReason
  /**
   * The Hono route pattern that matched (`'/users/:id'`, as in `c.req.routePath`) when `side` is
   * `'hono'` and the app is a Hono app; also, with the reason `'no-response'`, the route that matched a request that
   * went on to Express. Otherwise undefined. Computed on first read.
   */
  readonly route: string | undefined
  /** The request method. */
  method: string
  /** The status sent (`res.statusCode`). */
  status: number
  /** Milliseconds from the bridge receiving the request until the response finished (or the connection closed). */
  duration: number
  /** False when the connection closed before the response was complete. */
  completed: boolean
  /** The request as the server passed it to the bridge (the Express Request under Express), e.g. for its headers. */
  req: IncomingMessage
  /** The response, finished or with its connection closed; `res.getHeaders()` shows the headers that went out. */
  res: ServerResponse
}

/** Which requests Hono middleware runs for: see {@link FetchBridgeOptions.honoMiddleware}. */
export type HonoMiddleware = 'routes' | 'all'

/** Options of `fetchBridge`. */
export interface FetchBridgeOptions<
  Req extends IncomingMessage = IncomingMessage,
  Res extends ServerResponse = ServerResponse,
> {
  /**
   * Install the bridge's lightweight `Response` as `globalThis.Response` when `fetchBridge()` is
   * called (before any request, so start-up code and tests build the same classes the app gets), so `new Response()`,
   * `c.text()` and `c.json()` take the fast path. The
   * lightweight class passes `instanceof Response` for real responses too. `globalThis.Headers`
   * becomes the same Map-backed Headers the lightweight Response has (same checks, errors and
   * iteration; `instanceof Headers` holds for the platform's too), so the Headers Hono's context and
   * middleware build (`c.header()`, cors, secure-headers) cost a Map's work. The global `Request` and
   * `fetch` are wrapped at the same time so they accept the lazy `c.req.raw` like a platform Request
   * (`new Request(c.req.raw, init)`, `fetch(c.req.raw)`, as `hono/body-limit` and
   * `hono/method-override` do); `instanceof Request` stays true for both kinds. With `false` globals
   * stay untouched, the app gets a platform Request (built per request, its body still streamed from
   * the socket), which the platform's `new Request(c.req.raw)`, `clone()` and `fetch()` accept, and
   * every response is served through the general path.
   * @default true
   * @example fetchBridge(app, { overrideGlobalObjects: false })
   */
  overrideGlobalObjects?: boolean | undefined
  /**
   * When the app has no route for a request (a Hono app's not-found handler would run, or a plain
   * fetch function returns `undefined`/`null`), call `next()` so the Express routes behind the bridge
   * serve it. With `false` the app's own 404 is sent. Requests the app must not get (a Host no URL can
   * hold, a target Express and the app would route apart (dot segments, `%61`), `OPTIONS *`) are handed on too,
   * untouched and
   * quietly; with `false`, or without anyone behind the bridge, they are answered 400.
   * @default true
   * @example fetchBridge(app, { fallthrough: false })
   */
  fallthrough?: boolean | undefined
  /**
   * Which requests Hono middleware runs for. `'routes'`: requests to a path the app has a route for
   * (any method, so its OPTIONS and HEAD too; middleware on a path of its own, like
   * `use('/static/*', serveStatic())`, counts as a route); any other request reaches Express in the same
   * tick, untouched, before any Hono code runs. `'all'`: middleware for every path (`hono.use(logger())`)
   * runs for every request, and a request no route answers goes on once it is done, asynchronously:
   * code an earlier Express middleware runs after calling `next()` then runs before the Express route
   * (see docs/guide/day-one.md). An app with its own `getPath` runs for every request.
   * @default 'routes'; 'all' in front-door mode (`fallback`), where nothing of Express ran before
   * @example fetchBridge(hono, { honoMiddleware: 'all' }) // a Hono logger sees the Express routes' requests too
   */
  honoMiddleware?: HonoMiddleware | undefined
  /**
   * Under `app.use('/api', bridge)`: `'strip'` gives the app the path relative to the mount point
   * (like an Express sub-app: `/api/users` → `/users`); `'keep'` gives it the full path
   * (`req.baseUrl + req.url`; under Connect, which has no `baseUrl`, the path of `req.originalUrl`).
   * @default 'strip'
   * @example fetchBridge(app, { mountPath: 'keep' })
   */
  mountPath?: 'strip' | 'keep' | undefined
  /**
   * A fixed origin for every Request URL, for apps behind proxies and against Host-header injection.
   * Without it the origin is Express's `req.protocol` plus the Host header (`X-Forwarded-*` count only
   * when Express's `trust proxy` is on), or the socket's for Connect/node:http.
   * @default undefined
   * @example fetchBridge(app, { origin: 'https://api.example.com' })
   */
  origin?: string | undefined
  /**
   * Extra bindings added to `env`. Called once per request the app runs for (not for a request no route
   * or middleware of a Hono app matches: it is handed on first). `incoming` and `outgoing` always stay the
   * request's `req` and `res`: keys of that name in the result are ignored.
   * Annotate `req` (or pass the type argument) to get Express's request type.
   * @default undefined
   * @example fetchBridge(app, { env: (req: express.Request) => ({ requestId: req.get('x-request-id') }) })
   */
  env?: ((req: Req, res: Res) => Record<string, unknown>) | undefined
  /**
   * Front-door mode: run the bridge in front of an Express (or Connect, or any node:http) app instead
   * of inside it. Requests a Hono route matches are served straight from node:http, without entering
   * the fallback; every other request is handed to `fallback(req, res)` untouched (same objects,
   * `req.url` unchanged, body unread), so its middleware, routes, 404 and error handling run as if it
   * were the server's listener. Errors the app lets escape (e.g. `hono.onError((err) => { throw err })`)
   * answer a plain 500: customise them with `hono.onError()`. A bad Host or target goes to the fallback.
   * If the bridge is nevertheless mounted as middleware, unmatched requests go to
   * `fallback(req, res, next)` (like a mounted Router) and errors to `next(err)`.
   * Cannot be combined with `fallthrough: false`.
   * @default undefined
   * @example
   * const app = express()
   * app.use(express.json())
   * app.get('/legacy', (req, res) => res.send('still Express'))
   * fetchBridge(hono, { fallback: app }).listen(3000)
   */
  fallback?: FallbackHandler | undefined
  /**
   * Called once per request that reaches the bridge, after the response is finished (or the
   * connection closed), with who served it, the matched Hono route pattern, the status and the
   * duration: traffic counts for a migration. Without it the bridge adds nothing per request.
   * Errors it throws are reported as process warnings, never thrown into the server.
   * @default undefined
   * @example Prometheus (prom-client); label with the route pattern, never the raw URL
   * const served = new client.Counter({ name: 'bridge_requests_total', help: 'Requests by side', labelNames: ['side',
   * 'route', 'status'] })
   * app.use(fetchBridge(hono, {
   *   onDispatch: (info) => served.inc({ side: info.side, route: info.route ?? '', status: info.status }),
   * }))
   */
  onDispatch?: ((info: DispatchInfo) => void) | undefined
  /**
   * Bounds of the drain of a request body the app did not read: once the response is out, up to
   * `maxBytes` more bytes are read and discarded within `maxMs`, so the client (still uploading) gets
   * the answer and the connection can be reused; past either bound the connection is closed after
   * the answer. The drain always ends before the server's own `requestTimeout` or `timeout` would
   * fire (never an unsolicited 408 after the answer). `maxMs: 0` closes at once.
   * @default { maxBytes: 4194304, maxMs: 5000 }
   * @example fetchBridge(app, { drain: { maxBytes: 64 * 1024, maxMs: 1000 } })
   */
  drain?: { maxBytes?: number | undefined; maxMs?: number | undefined } | undefined
  /**
   * How much of a body the app read is kept for the handlers a request then falls through to (a
   * global `bodyLimit()` counting a chunked upload reads every body), and for Express parsers run
   * inside the app by `expressMiddleware()`: they get every byte up to `maxBytes`; past it, a 413
   * (`next(err)`), never a short body. Set it to your largest upload behind such middleware; the bytes
   * are held in memory until the response is done. `0` keeps nothing.
   * @default { maxBytes: 4194304 }
   * @example fetchBridge(app, { replay: { maxBytes: 32 * 1024 * 1024 } })
   */
  replay?: { maxBytes?: number | undefined } | undefined
  /**
   * Match Hono routes as the Express app in front would match a route of the same path: literal text
   * in any letter case unless `case sensitive routing`, one trailing slash more or less unless `strict
   * routing` (read from the router the bridge is mounted in, or the front-door `fallback`; an object
   * sets them). Parameters keep the client's case; `c.req.url` and `c.req.path` show the path as the
   * route spells it, the client's own is `c.env.incoming.originalUrl`. See docs/guide/matching.md.
   * @default false (Hono's own matching: case-sensitive, strict)
   * @example fetchBridge(hono, { expressRouting: true }) // GET /Users/1/ reaches hono.get('/users/:id')
   */
  expressRouting?: ExpressRoutingOption | undefined
  /**
   * Shadow runs and canary traffic for moved routes, made by `shadowTrial()`: Express keeps answering
   * the named routes while their Hono twin runs on a copy of each request and is compared, or a share
   * of their requests goes to Hono. See docs/guide/shadow-and-canary.md. Without it nothing runs per request.
   * @default undefined
   * @example
   * const trial = shadowTrial({ routes: [{ route: '/users/:id' }] })
   * app.use(fetchBridge(hono, { shadow: trial }))
   */
  shadow?: ShadowHook | undefined
}

/** Options with defaults applied, computed once per bridge. */
export interface ResolvedOptions {
  overrideGlobalObjects: boolean
  fallthrough: boolean
  honoMiddleware: HonoMiddleware
  keepMountPath: boolean
  origin: string | undefined
  env: ((req: any, res: any) => Record<string, unknown>) | undefined
  fallback: FallbackHandler | undefined
  onDispatch: ((info: DispatchInfo) => void) | undefined
  drain: DrainBounds
  /** Bytes of a body the app read kept for hand-over. */
  replayLimit: number
  /** `expressRouting`, resolved; undefined when off. */
  expressRouting: ResolvedRouting | undefined
  shadow: ShadowHook | undefined
}

export function resolveOptions(options: FetchBridgeOptions<any, any> = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('fetchBridge: options must be an object')
  }
  refuseUnknownOptions(options)
  const { mountPath = 'strip' } = options
  // `fallthrough: 'no'` must not act as true: every option is checked for its type, as below.
  for (const name of ['overrideGlobalObjects', 'fallthrough'] as const) {
    const value = options[name]
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(
        `fetchBridge: ${name} must be true or false, got ${typeof value === 'string' ? `'${value}'` : String(value)}`,
      )
    }
  }
  if (mountPath !== 'strip' && mountPath !== 'keep') {
    throw new TypeError(`fetchBridge: mountPath must be 'strip' or 'keep', got ${String(mountPath)}`)
  }
  let origin: string | undefined
  if (options.origin !== undefined) {
    let parsed: URL
    try {
      parsed = new URL(options.origin)
    } catch {
      throw new TypeError(`fetchBridge: origin is not a valid URL: ${options.origin}`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new TypeError(`fetchBridge: origin must be http: or https:, got ${parsed.protocol}`)
    }
    refuseOriginWithPath(options.origin, parsed)
    origin = parsed.origin
  }
  if (options.env !== undefined && typeof options.env !== 'function') {
    throw new TypeError('fetchBridge: env must be a function (req, res) => object')
  }
  if (options.fallback !== undefined) {
    if (typeof options.fallback !== 'function') {
      throw new TypeError('fetchBridge: fallback must be a (req, res) => void listener, e.g. an Express app')
    }
    if (options.fallthrough === false) {
      throw new TypeError('fetchBridge: fallback needs fallthrough; drop fallthrough: false or the fallback')
    }
  }
  const { honoMiddleware = options.fallback === undefined ? 'routes' : 'all' } = options
  if (honoMiddleware !== 'routes' && honoMiddleware !== 'all') {
    throw new TypeError(`fetchBridge: honoMiddleware must be 'routes' or 'all', got ${String(honoMiddleware)}`)
  }
  if (options.onDispatch !== undefined && typeof options.onDispatch !== 'function') {
    throw new TypeError('fetchBridge: onDispatch must be a function (info) => void')
  }
  if (options.shadow !== undefined && !isShadowHook(options.shadow)) {
    throw new TypeError('fetchBridge: shadow must be made by shadowTrial({ routes })')
  }
  return {
    shadow: options.shadow,
    drain: resolveDrain(options.drain),
    replayLimit: resolveReplay(options.replay),
    overrideGlobalObjects: options.overrideGlobalObjects ?? true,
    fallthrough: options.fallthrough ?? true,
    honoMiddleware,
    keepMountPath: mountPath === 'keep',
    origin,
    env: options.env,
    fallback: options.fallback,
    onDispatch: options.onDispatch,
    expressRouting: resolveExpressRouting(options.expressRouting),
  }
}

function resolveReplay(replay: FetchBridgeOptions['replay']): number {
  if (replay === undefined) return REPLAY_LIMIT
  if (replay === null || typeof replay !== 'object') throw new TypeError('fetchBridge: replay must be { maxBytes? }')
  const { maxBytes = REPLAY_LIMIT } = replay
  if (typeof maxBytes !== 'number' || !(maxBytes >= 0) || maxBytes === Infinity) {
    throw new TypeError(`fetchBridge: replay.maxBytes must be a finite number >= 0, got ${String(maxBytes)}`)
  }
  return maxBytes
}

function resolveDrain(drain: FetchBridgeOptions['drain']): DrainBounds {
  if (drain === undefined) return DEFAULT_DRAIN
  if (drain === null || typeof drain !== 'object')
    throw new TypeError('fetchBridge: drain must be { maxBytes?, maxMs? }')
  const { maxBytes = DEFAULT_DRAIN.maxBytes, maxMs = DEFAULT_DRAIN.maxMs } = drain
  for (const [name, value] of [
    ['maxBytes', maxBytes],
    ['maxMs', maxMs],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0) || value === Infinity) {
      throw new TypeError(`fetchBridge: drain.${name} must be a finite number >= 0, got ${String(value)}`)
    }
  }
  return { maxBytes, maxMs }
}
