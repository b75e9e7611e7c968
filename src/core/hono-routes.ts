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
  const path =
    typeof hono.getPath === 'function'
      ? hono.getPath({ url: 'http://localhost' + target }, { env: {} })
      : target.split('?')[0]
  const [matches] = hono.router.match(method === 'HEAD' ? 'GET' : method, path)
  const routes: HonoRoute[] = []
  for (const match of matches) {
    const route = match[0][1]
    if (route !== undefined && !isMiddleware(route.handler)) routes.push(route)
  }
  return routes
}
