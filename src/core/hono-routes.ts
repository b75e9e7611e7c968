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
 * The route that answers a request to `url` (an origin-form target or an absolute URL): the first
 * handler route Hono matches, what `c.req.routePath` names inside it. Undefined when none matches.
 */
export function answeringRoute(hono: HonoRoutes, method: string, url: string): HonoRoute | undefined {
  try {
    const target = url.charCodeAt(0) === 47 ? url : new URL(url).pathname
    return honoMatches(hono, method, target)[0]
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
