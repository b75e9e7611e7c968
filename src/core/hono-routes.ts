/** Reading a Hono app's routes through its public `routes` and `router.match()`. */

export interface HonoRoute {
  method: string
  path: string
  handler: (...args: any[]) => unknown
}

export interface HonoRoutes {
  routes: HonoRoute[]
  router: { match(method: string, path: string): [Array<[[unknown, HonoRoute?], unknown]>, unknown?] }
  getPath?: (request: { url: string }, options: { env: unknown }) => string
}

/** Middleware takes `(c, next)`: the rule Hono's own `inspectRoutes()` uses. */
export function isMiddleware(handler: any): boolean {
  while (handler?.__COMPOSED_HANDLER) handler = handler.__COMPOSED_HANDLER
  return typeof handler === 'function' && handler.length > 1
}

/**
 * The handler routes (not middleware) Hono's router matches for a request to `target` (path and
 * query), in dispatch order: on the path Hono routes on, after its own `getPath` (percent-decoding,
 * and the trailing slash dropped under `strict: false`).
 */
export function honoMatches(hono: HonoRoutes, method: string, target: string): HonoRoute[] {
  const routes: HonoRoute[] = []
  for (const match of routerMatches(hono, method, honoPath(hono, target))) {
    const route = match[0][1]
    if (route !== undefined && !isMiddleware(route.handler)) routes.push(route)
  }
  return routes
}

/**
 * The route that answers a request to `url` (an origin-form target, or the URL of a Request the
 * bridge built: an origin and a path already normalised): the first handler route Hono matches, what
 * `c.req.routePath` names inside it. Undefined when none matches.
 */
export function answeringRoute(hono: HonoRoutes, method: string, url: string): HonoRoute | undefined {
  try {
    // Sliced, not parsed again: this runs for every request a tracer follows.
    const path = url.charCodeAt(0) === 47 ? 0 : url.indexOf('/', url.indexOf('//') + 2)
    return honoMatches(hono, method, path === -1 ? '/' : url.slice(path))[0]
  } catch {
    return undefined
  }
}

// Reused: getPath reads only `url`, and nothing keeps the object (this runs on the bridge's hot path).
const scratch = { url: '' }
const NO_ENV = { env: {} }

/** The path Hono routes `target` (path and query) on: its own `getPath` (percent-decoding, `strict`). */
export function honoPath(hono: HonoRoutes, target: string): string {
  if (typeof hono.getPath !== 'function') return target.split('?')[0]
  scratch.url = 'http://localhost' + target
  return hono.getPath(scratch, NO_ENV)
}

/** Every handler (middleware and routes) Hono's router matches for `method path`; HEAD routes as GET. */
export function routerMatches(hono: HonoRoutes, method: string, path: string): Array<[[unknown, HonoRoute?], unknown]> {
  return hono.router.match(method === 'HEAD' ? 'GET' : method, path)[0]
}

/**
 * {@link routerMatches} for the hand-on check: the match is also left for the dispatch that follows
 * (see sharingMatches). Other readers (route names, the report) match after or apart from a dispatch.
 */
export function checkMatches(hono: HonoRoutes, method: string, path: string): Array<[[unknown, HonoRoute?], unknown]> {
  const router = hono.router
  const routed = method === 'HEAD' ? 'GET' : method
  const result = router.match(routed, path)
  last.router = router
  last.method = routed
  last.path = path
  last.routes = hono.routes.length
  last.result = result
  return result[0]
}

// The hand-on check's last match, for the dispatch that follows it in the same tick (see
// sharingMatches): one slot, holding one result at most.
const last: { router: unknown; method: string; path: string; routes: number; result: unknown } = {
  router: undefined,
  method: '',
  path: '',
  routes: -1,
  result: undefined,
}

/**
 * `hono`'s router for a copy of the app that dispatches the requests the hand-on check let through:
 * a match the check just made for the same method and path (and the same routes) is taken instead of
 * matching again, which for a route with parameters costs as much as the rest of the check. The
 * router's answer depends on nothing else, so a match taken by a later request is still its answer.
 */
export function sharingMatches(hono: HonoRoutes): HonoRoutes['router'] {
  const router = hono.router as HonoRoutes['router'] & { name?: string; add(...args: unknown[]): void }
  return {
    name: router.name,
    add: (...args: unknown[]) => router.add(...args),
    match(method: string, path: string) {
      if (
        last.router === router &&
        last.path === path &&
        last.method === method &&
        last.routes === hono.routes.length
      ) {
        const result = last.result as ReturnType<HonoRoutes['router']['match']>
        last.result = last.router = undefined
        return result
      }
      return router.match(method, path)
    },
  } as HonoRoutes['router']
}

/**
 * Middleware registered for every path (`app.use(mw)`, `use('*', mw)`, `use('/*', mw)`): it makes no
 * path the app's own. Middleware on a path of its own (`use('/static/*', serveStatic())`, a guard on
 * `/admin/*`, a mounted app) does, like a route.
 */
export function isEveryPathMiddleware(route: HonoRoute): boolean {
  return (route.path === '/*' || route.path === '*') && isMiddleware(route.handler)
}

/**
 * "The app has a route for this path": for some method, Hono's router matches `path` (the path Hono
 * routes on, after {@link honoPath}) to a route, or to middleware on a path of its own (see
 * {@link isEveryPathMiddleware}). The one predicate the hand-on rule asks; it re-reads the app's routes
 * when routes are added. A first path segment no such route starts with is answered by a Set, not by
 * Hono's router (3 µs per match at 2,000 routes); routes starting with a parameter, wildcard or
 * pattern turn that off. `method` is tried first (HEAD as GET), and the answer says whether the route
 * found is for it: then something matches the request itself, and the caller needs no second match.
 */
export function routeForPath(hono: HonoRoutes): (method: string, path: string) => RouteFor {
  let counted = -1
  let owners = new Set<HonoRoute>()
  let methods: string[] = []
  let firsts: Set<string> | undefined
  return (method, path) => {
    const routes = hono.routes
    if (routes.length !== counted) {
      counted = routes.length
      owners = new Set(routes.filter((route) => !isEveryPathMiddleware(route)))
      methods = [...new Set([...owners].map((route) => route.method))]
      firsts = firstSegments(owners)
    }
    if (owners.size === 0) return NO_ROUTE
    if (firsts !== undefined && !firsts.has(firstSegment(path))) return NO_ROUTE
    const tried = method === 'HEAD' ? 'GET' : method
    if (matchesOwner(hono, owners, tried, path)) return ROUTE_FOR_METHOD
    for (const other of methods)
      if (other !== tried && matchesOwner(hono, owners, other, path)) return ROUTE_FOR_OTHER_METHOD
    return NO_ROUTE
  }
}

/** What {@link routeForPath} found for a path: no route, one for the request's method, one for another only. */
export type RouteFor = typeof NO_ROUTE | typeof ROUTE_FOR_METHOD | typeof ROUTE_FOR_OTHER_METHOD
export const NO_ROUTE = 0
export const ROUTE_FOR_METHOD = 1
const ROUTE_FOR_OTHER_METHOD = 2

function matchesOwner(hono: HonoRoutes, owners: Set<HonoRoute>, method: string, path: string): boolean {
  for (const match of checkMatches(hono, method, path)) {
    if (match[0][1] !== undefined && owners.has(match[0][1])) return true
  }
  return false
}

const LITERAL = /^[A-Za-z0-9\-._~!$&'()+,;=@]*$/

/** `/api/v1/x` → `api`; `/` → ``. */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? path.slice(1) : path.slice(1, end)
}

/**
 * The literal first segments of the routes, or undefined when one starts with a parameter, wildcard or
 * pattern. Hono's router matches case-sensitively from the first segment, so a path whose first
 * segment is not in the Set matches none of them.
 */
export function firstSegments(routes: Iterable<{ path: string }>): Set<string> | undefined {
  const out = new Set<string>()
  for (const route of routes) {
    if (route.path.charCodeAt(0) !== 47) return undefined
    const first = firstSegment(route.path)
    if (!LITERAL.test(first)) return undefined
    out.add(first)
  }
  return out
}
