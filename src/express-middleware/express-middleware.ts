import { ServerResponse, type IncomingMessage } from 'node:http'
// @ts-ignore -- hono is an optional peer: without it the fallback type below applies
import type { MiddlewareHandler as HonoMiddlewareHandler } from 'hono'
import { alreadySent } from '../core/already-sent.js'
import { isExpressApp } from '../core/app-kinds.js'
import { defaultExpressApp, enterApp, hasNodeBindings, leaveApp, type ExpressAppLike } from './express-app.js'
import { bodyUnread, requestAfterParse } from './express-body.js'
import { bodyConsumed } from '../request/rebuilt-body.js'
import { lendBody, takeBack } from '../request/body-hand-over.js'
import { runChain, type ExpressHandler } from './express-chain.js'
import { isUpgradeEnv, joinStandIn, refusalFrom, standInResponse } from './upgrade-response.js'
import { toHonoError } from './express-errors.js'
import { headLengthAsHeader, lengthVisibleToMiddleware, mergeOutgoingInto } from './express-headers.js'
import type { ExpressBindings, OrFallback } from '../bridge/options.js'
import { BRIDGE_ENV } from '../core/process-shared.js'
import { expressView } from '../request/url.js'

/** An Express/Connect middleware, error handler, Router or app — or a (nested) list of them, as `app.use()` takes. */
export type ExpressMiddlewareHandler = ((...args: any[]) => unknown) | readonly ExpressMiddlewareHandler[]

/** The Express Request as Hono sees it in `c.env.incoming` (with your declaration merging: `user`, `session`…). */
export type ExpressIncoming = ExpressBindings['incoming']

/** Options of {@link expressMiddleware}, passed as its first argument. */
export interface ExpressMiddlewareOptions<K extends keyof ExpressIncoming = never> {
  /**
   * The Express app whose request/response API and settings (`trust proxy`, `query parser`,
   * `json spaces`, `x-powered-by`…) the middleware gets, as if it ran inside that app.
   * @default the first Express app among the handlers; else, when the request already came through
   * an Express app (middleware mode), that app; else a default `express()` app with X-Powered-By off
   * (or plain node:http objects, for Connect middleware, when express is not installed)
   * `false` gives the middleware the plain node:http objects (Connect semantics), which saves
   * Express's per-request prototype switch: enough for middleware that needs no Express API
   * (helmet, cors, compression, serve-static, morgan, express-session).
   * @example expressMiddleware({ app: legacyApp }, rateLimit({ limit: 100 }))
   * @example expressMiddleware({ app: false }, helmet())
   */
  app?: ExpressAppLike | ((req: any, res: any, next?: any) => void) | false | undefined
  /**
   * Properties of the request to copy into Hono's `c.var` once the middleware handed on, so Hono
   * code reads `c.var.user` instead of `c.env.incoming.user` (typed from `c.env.incoming`).
   * @default []
   * @example expressMiddleware({ vars: ['user', 'session'] }, session(opts), passport.session())
   */
  vars?: readonly K[] | undefined
}

/** What {@link expressMiddleware} adds to the Hono environment. */
export interface ExpressMiddlewareEnv<K extends keyof ExpressIncoming = never> {
  /** `c.env`: the Express request and response as `c.env.incoming` / `c.env.outgoing` (see {@link ExpressBindings}). */
  Bindings: ExpressBindings
  /**
   * `c.var`: the request properties named in the `vars` option (`K`), typed as on `c.env.incoming`.
   * @example new Hono<ExpressMiddlewareEnv<'user'>>() // c.var.user, set by expressMiddleware({ vars: ['user'] }, …)
   */
  Variables: { [P in K]: ExpressIncoming[P] }
}

type FallbackMiddleware = (c: any, next: () => Promise<void>) => Promise<Response | void>

/** The Hono middleware {@link expressMiddleware} returns (a plain function type without hono installed). */
export type ExpressMiddleware<K extends keyof ExpressIncoming = never> = OrFallback<
  HonoMiddlewareHandler<ExpressMiddlewareEnv<K>>,
  FallbackMiddleware
>

const NO_BINDINGS =
  'expressMiddleware() needs the Node request and response as c.env.incoming and c.env.outgoing. Serve ' +
  'the Hono app with fetchBridge() (front-door or middleware mode, or on node:http) or with ' +
  "@hono/node-server's serve(); in a unit test, send real HTTP requests (e.g. supertest(fetchBridge(hono))) " +
  'instead of hono.request().'

/**
 * Run Express/Connect middleware (or an Express Router or app) inside Hono, with Express's
 * semantics: `next()` continues the Hono chain, `next(err)`, a throw or a rejection reaches Hono's
 * `onError` (the error keeps its `status`), `next('route')` goes on to the next handler and
 * `next('router')` past the last. A middleware that answers by itself (a 429, a redirect,
 * `res.sendFile`) ends the chain: nothing after it runs, nothing more is written. Headers it set on
 * `res` are merged into Hono's response (Set-Cookie appended, Vary merged); what it adds to `req`
 * is in `c.env.incoming`; a body it parsed stays readable through `c.req.json()` / `parseBody()`.
 * Needs Node bindings: fetchBridge() or @hono/node-server.
 *
 * @example
 * hono.use(expressMiddleware(session({ store }), passport.initialize(), passport.session()))
 * hono.get('/me', (c) => c.json(c.env.incoming.user ?? null))
 * fetchBridge(hono, { fallback: legacyApp }).listen(3000)
 *
 * @example Options first: the legacy app's settings, and req.user copied to c.var.user
 * hono.use(expressMiddleware({ app: legacyApp, vars: ['user'] }, passport.session()))
 */
export function expressMiddleware<const K extends keyof ExpressIncoming = never>(
  options: ExpressMiddlewareOptions<K>,
  ...handlers: ExpressMiddlewareHandler[]
): ExpressMiddleware<K>
export function expressMiddleware(...handlers: ExpressMiddlewareHandler[]): ExpressMiddleware
export function expressMiddleware(...args: unknown[]): ExpressMiddleware<any> {
  let options: ExpressMiddlewareOptions<any> = {}
  if (args.length > 0 && args[0] !== null && typeof args[0] === 'object' && !Array.isArray(args[0])) {
    options = args.shift() as ExpressMiddlewareOptions<any>
  }
  const stack = flatten(args)
  const vars = options.vars ?? []
  if (!Array.isArray(vars)) throw new TypeError('expressMiddleware: vars must be an array of request property names')
  if (options.app !== undefined && options.app !== false && !isExpressApp(options.app)) {
    throw new TypeError('expressMiddleware: app must be an Express application (express()) or false')
  }
  const noExpressApi = options.app === false
  const givenApp =
    ((options.app || undefined) as ExpressAppLike | undefined) ??
    (stack.find(isExpressApp) as ExpressAppLike | undefined)

  const middleware: FallbackMiddleware = async function expressMiddleware(c, next) {
    const env = c.env
    const upgrade = isUpgradeEnv(env)
    if (!upgrade && !hasNodeBindings(env)) throw new TypeError(NO_BINDINGS)
    const req = env.incoming as IncomingMessage & Record<string, any>
    const res = upgrade ? standInResponse(req) : (env.outgoing as ServerResponse)
    // The bridge's serializer merges res headers itself when it writes; other hosts need it done here.
    const viaBridge = (env as { [BRIDGE_ENV]?: true })[BRIDGE_ENV] === true
    const app = noExpressApi ? undefined : (givenApp ?? (isExpressApp(req.app) ? undefined : defaultExpressApp()))
    req.originalUrl ??= req.url
    const unread = bodyUnread(req)
    const saved = app === undefined || app === null ? undefined : enterApp(app, req, res)

    // The chain routes on the path the Hono app routes on (a guard on /admin runs for /%61dmin too).
    const view = expressView(req, c.req.url)
    const url = req.url
    const baseUrl = req.baseUrl
    if (view !== undefined) {
      req.url = view.url
      req.baseUrl = view.baseUrl
    }
    const method = req.method
    // A body the app started reading (bodyLimit() counting a chunked upload) goes back to the chain whole.
    const loan = unread ? lendBody(req) : undefined
    const outcome = await runChain(stack, req, res)
    const short = loan === undefined ? undefined : takeBack(req, loan, bodyConsumed(req))
    if (view !== undefined) {
      req.url = url
      req.baseUrl = baseUrl
    }
    if (outcome.kind === 'answered') return upgrade ? refusalFrom(res) : alreadySent()
    leaveApp(saved, req, res)
    if (outcome.kind === 'error') {
      // Too late for an error answer: cut the connection, as Express's final handler does.
      if (res.headersSent && !res.writableEnded) res.destroy()
      throw toHonoError(outcome.error)
    }
    if (short !== undefined) throw toHonoError(short)
    // Hono chose the route before the chain ran: a changed method would run the wrong handler.
    if (req.method !== method) throw new TypeError(methodChanged(method, req.method))
    if (unread) {
      const replaced = await requestAfterParse(req, c.req.raw)
      if (replaced !== undefined) c.req.raw = replaced
    }
    for (const name of vars) c.set(name, req[name as string])
    const late = outcome.late
    if (late.error !== undefined) throw toHonoError(late.error)
    // A late next(err) (connect-timeout) while Hono works wins, as in Express: onError answers.
    const lateError = await new Promise<unknown>((resolve, reject) => {
      late.listener = resolve
      next().then(() => resolve(undefined), reject)
    })
    late.listener = undefined
    if (lateError !== undefined) throw toHonoError(lateError)
    if (!viaBridge) {
      mergeOutgoingInto(c, res)
      if (upgrade) joinStandIn(c.res, res)
      else if (res.writeHead !== ServerResponse.prototype.writeHead) lengthVisibleToMiddleware(res)
      if (method === 'HEAD' && !upgrade) await headLengthAsHeader(c)
    }
  }
  return middleware as ExpressMiddleware<any>
}

function methodChanged(from: string | undefined, to: string | undefined): string {
  return (
    `expressMiddleware: a middleware changed the request method from ${from} to ${to} (method-override?), ` +
    "but Hono chose the route before it ran. Use Hono's own methodOverride({ app }) from " +
    "'hono/method-override', which dispatches the request again, or keep method-override in Express " +
    'in front of the bridge (middleware mode).'
  )
}

function flatten(list: unknown[], out: ExpressHandler[] = []): ExpressHandler[] {
  for (const item of list) {
    if (Array.isArray(item)) flatten(item, out)
    else if (typeof item === 'function') out.push(item as ExpressHandler)
    else
      throw new TypeError(
        `expressMiddleware: expected middleware functions, got ${item === null ? 'null' : typeof item}`,
      )
  }
  return out
}
