// Under expressRouting a Hono route answers the URLs its Express route answered (other letter case,
// a trailing slash more or less): such a request is named after the route that answered it, as
// the route's own spelling is. Property: for any spelling of a route's URL, at the root, under a
// mount with either mountPath, in a Router, and in front-door mode, the server span (real
// OpenTelemetry SDK, in a child process: fixtures/observability/otel-express-routing-server.ts) and
// req.route name the route Hono reports it ran (`c.req.routePath`).
import fc from 'fast-check'
import { startChildServer, type ChildServer } from '../helpers/child-server'
import { request, sleep } from '../helpers/transport'

interface SpanRecord {
  name: string
  kind: number
  attributes: Record<string, unknown>
}

const SERVER = 1
/** Each server's mount: where Express routed the request to the bridge ('' at the root). */
const MOUNTS = { root: '', strip: '/api', keep: '/api', router: '/v1', 'front-door': '' } as const
type Server = keyof typeof MOUNTS
/** A request to each route, as the route spells it (relative to the mount), and the route. */
const ROUTES: Array<[method: string, path: string, route: string]> = [
  ['GET', '/users/7', '/users/:id'],
  ['GET', '/users/ab/posts/Cd', '/users/:id/posts/:post'],
  ['POST', '/orders', '/orders'],
  ['GET', '/items/', '/items/'],
  ['DELETE', '/anything', '/anything'],
  ['GET', '/', '/'],
]

/** `/api` + `/users/:id`; a route `/` under a mount is the mount itself (as Express names it). */
const join = (mount: string, path: string) => (mount === '' ? path : path === '/' ? mount : mount + path)

/** `path` with the letters whose flag is set in the other case, and a trailing slash more or less. */
function respell(path: string, flips: boolean[], slash: boolean): string {
  let out = [...path].map((ch, i) => (flips[i % flips.length] ? (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()) : ch)).join('')
  if (slash && out !== '/') out = out.endsWith('/') ? out.slice(0, -1) : out + '/'
  return out
}

let counter = 0
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value)

describe.each([['5'], ['4']])('Express %s, expressRouting, OpenTelemetry auto-instrumentation', (major) => {
  let child: ChildServer
  const collected: SpanRecord[] = []
  beforeAll(async () => {
    child = await startChildServer('__tests__/fixtures/observability/otel-express-routing-server.ts', { EXPRESS_MAJOR: major })
  }, 30000)
  afterAll(() => child?.stop())

  /** The request's answer, its server span and the req.route recorded for it. */
  async function send(server: Server, method: string, path: string) {
    const id = `r${++counter}`
    const { res, body } = await request(`http://127.0.0.1:${child.ports[server]}${path}`, { method, headers: { 'x-test-id': id } })
    for (let i = 0; i < 100; i++) {
      collected.push(...(await child.ask<SpanRecord[]>('spans')))
      const span = collected.find((s) => s.kind === SERVER && firstOf(s.attributes['http.request.header.x_test_id'] ?? s.attributes['http.request.header.x-test-id']) === id)
      if (span !== undefined) {
        const routes = await child.ask<Record<string, { baseUrl: string; path?: string }>>('routes')
        return { status: res.statusCode, answered: body.toString(), span, seen: routes[id] }
      }
      await sleep(10)
    }
    throw new Error(`no server span for ${method} ${path} on ${server}:\n${child.output()}`)
  }

  it('any spelling Hono answers is named after the route that answered (span name, http.route, req.route)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(MOUNTS) as Server[])),
        fc.constantFrom(...ROUTES),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }),
        fc.boolean(),
        async (server, [method, path, route], flips, slash) => {
          const mount = MOUNTS[server]
          const { status, answered, span, seen } = await send(server, method, respell(join(mount, path), flips, slash))
          // The route expressRouting routed it to: the one its own spelling reaches.
          expect({ status, answered }).toEqual({ status: 200, answered: server === 'keep' ? join(mount, route) : route })
          if (server === 'front-door') {
            expect(seen).toBeUndefined()
            return expect([span.name, span.attributes['http.route']]).toEqual([`${method} ${answered}`, answered])
          }
          // req.baseUrl is the mount as the client spelled it (Express matched it in any case).
          expect(seen.baseUrl.toLowerCase()).toBe(mount)
          // The mount part of the name: the mount's pattern as instrumentation-express gives it, which
          // it gives only for the mount spelled as written; otherwise req.baseUrl stands in (as without
          // instrumentation-express). Under 'keep' the route holds the mount as written.
          const full = server === 'keep' ? answered : join(seen.baseUrl, answered)
          expect([span.name, span.attributes['http.route']]).toEqual([`${method} ${full}`, full])
          // req.route.path: the route under req.baseUrl, as Express sets it for a route in a Router.
          expect(seen.path).toBe(server === 'keep' ? answered.slice(mount.length) || '/' : answered)
        },
      ),
      { numRuns: 80 },
    )
  }, 60000)
})
