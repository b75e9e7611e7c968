// A route moved from Express to Hono keeps its OpenTelemetry name: with the standard
// auto-instrumentation (real SDK, in-memory exporters, in a child process so its require hooks
// see express and node:http), the same requests are sent to the API served by Express and to the
// same API moved behind the bridge, and their server spans, http.route and
// http.server.request.duration points are compared. The child: fixtures/observability/otel-server.ts.
import fc from 'fast-check'
import { startChildServer, type ChildServer } from '../helpers/child-server'
import { request, sleep } from '../helpers/transport'

interface SpanRecord {
  name: string
  kind: number
  traceId: string
  spanId: string
  parentSpanId?: string
  attributes: Record<string, unknown>
  status: { code: number; message?: string }
  events: Array<{ name: string; attributes?: Record<string, unknown> }>
}

const SERVER = 1
const MOVED = ['strip', 'keep', 'root', 'front-door', 'canary'] as const
const REQUESTS: Array<[method: string, path: string]> = [
  ['GET', '/api/users/7'],
  ['GET', '/api/users/7/posts/9'],
  ['POST', '/api/orders'],
  ['GET', '/t/acme/users/7'],
  ['GET', '/api/fail'],
  ['GET', '/api/teapot'],
  // Not moved: falls through to the Express route behind the bridge.
  ['GET', '/api/legacy/x'],
]

let counter = 0
const testId = () => `r${++counter}`
const idOf = (span: SpanRecord) =>
  span.attributes['http.request.header.x-test-id'] ?? span.attributes['http.request.header.x_test_id']
const firstOf = (value: unknown) => (Array.isArray(value) ? value[0] : value)

/** Send one request and return the spans of its trace once its server span has ended. */
async function traced(child: ChildServer, server: string, method: string, path: string, collected: SpanRecord[]) {
  const id = testId()
  const { res } = await request(`http://127.0.0.1:${child.ports[server]}${path}`, {
    method,
    headers: { 'x-test-id': id },
  })
  for (let i = 0; i < 100; i++) {
    collected.push(...(await child.ask<SpanRecord[]>('spans')))
    const span = collected.find((s) => s.kind === SERVER && firstOf(idOf(s)) === id)
    if (span !== undefined) {
      await sleep(5)
      collected.push(...(await child.ask<SpanRecord[]>('spans')))
      return { status: res.statusCode, server: span, trace: collected.filter((s) => s.traceId === span.traceId) }
    }
    await sleep(10)
  }
  throw new Error(`no server span for ${method} ${path} on ${server}:\n${child.output()}`)
}

describe.each([['5'], ['4']])('Express %s with OpenTelemetry auto-instrumentation', (major) => {
  let child: ChildServer
  const collected: SpanRecord[] = []
  beforeAll(async () => {
    child = await startChildServer('__tests__/fixtures/observability/otel-server.ts', { EXPRESS_MAJOR: major })
  }, 30000)
  afterAll(() => child?.stop())

  const naming = async (server: string, method: string, path: string) => {
    const { status, server: span } = await traced(child, server, method, path, collected)
    return { status, name: span.name, route: span.attributes['http.route'], error: span.status.code === 2 }
  }

  it.each(MOVED)('%s: every request is named as when Express served it (server span name, http.route, status)', async (server) => {
    for (const [method, path] of REQUESTS) {
      const before = await naming('express', method, path)
      expect(before.route).toBeDefined()
      expect({ method, path, ...(await naming(server, method, path)) }).toEqual({ method, path, ...before })
      // A route mounted through an Express Router is named the same way.
      expect(await naming('router', method, path)).toEqual(before)
    }
  })

  it.each(MOVED)('%s: the http.server.request.duration points carry the same http.route', async (server) => {
    const routes = async (name: string) => {
      await child.ask('metrics')
      for (const [method, path] of REQUESTS) await traced(child, name, method, path, collected)
      const points = await child.ask<Array<{ attributes: Record<string, unknown>; count: number }>>('metrics')
      return points
        .map((p) => `${String(p.attributes['http.request.method'])} ${String(p.attributes['http.route'])} ${String(p.attributes['http.response.status_code'])} x${p.count}`)
        .sort()
    }
    const before = await routes('express')
    expect(before).toContain('GET /api/users/:id 200 x1')
    expect(await routes(server)).toEqual(before)
  })

  it.each(MOVED)('%s: an error thrown in the route is recorded as the Express instrumentation records it', async (server) => {
    const recorded = async (name: string) => {
      const { server: span, trace } = await traced(child, name, 'GET', '/api/fail', collected)
      const withException = trace.filter((s) => s.events.some((e) => e.name === 'exception'))
      expect(withException).toHaveLength(1)
      const [failed] = withException
      // The span that recorded it is the server span or one of its children (the route handler's
      // layer in Express, the bridge's layer after the move).
      expect([span.spanId, span.parentSpanId].includes(failed.spanId) || failed.parentSpanId === span.spanId).toBe(true)
      const event = failed.events.find((e) => e.name === 'exception')!
      // In front-door mode the server span itself records it; instrumentation-http then sets its
      // status from the response code (ERROR, without a message).
      if (failed.status.message !== undefined) expect(failed.status.message).toBe('boom')
      return {
        server: span.status.code,
        status: failed.status.code,
        type: event.attributes?.['exception.type'],
        message: event.attributes?.['exception.message'],
      }
    }
    const before = await recorded('express')
    expect(before).toEqual({ server: 2, status: 2, type: 'Error', message: 'boom' })
    expect(await recorded(server)).toEqual(before)
  })

  it.each(['strip', 'keep', 'front-door'] as const)(
    '%s: inside Hono middleware, handlers and streamed bodies the active span belongs to the request (across awaits)',
    async (server) => {
      const prefix = '/api'
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('handler', 'stream'),
          fc.constantFrom('GET', 'POST'),
          fc.stringMatching(/^[tipq]{0,4}$/),
          async (where, method, steps) => {
            if (where === 'stream' && method === 'POST') method = 'GET'
            const id = testId()
            const path = `${prefix}/ctx/${where}?steps=${steps}&id=${id}`
            const { trace, server: span } = await traced(child, server, method, path, collected)
            const probes = trace.filter((s) => s.attributes['probe.id'] === id)
            const probesAnywhere = collected.filter((s) => s.attributes['probe.id'] === id)
            // Two in the middleware, one per step: every one of them in the request's trace...
            expect(probesAnywhere).toHaveLength(2 + steps.length)
            expect(probes).toHaveLength(2 + steps.length)
            // ...under its server span.
            const byId = new Map(trace.map((s) => [s.spanId, s]))
            for (const probe of probes) {
              let parent = byId.get(probe.parentSpanId ?? '')
              while (parent !== undefined && parent.spanId !== span.spanId) parent = byId.get(parent.parentSpanId ?? '')
              expect(parent?.spanId).toBe(span.spanId)
            }
          },
        ),
        { numRuns: 12 },
      )
    },
    60000,
  )

  it('@hono/otel with disableTracing adds no second server span; without it, it does', async () => {
    const before = await traced(child, 'express', 'GET', '/api/users/7', collected)
    const quiet = await traced(child, 'hono-otel', 'GET', '/api/users/7', collected)
    expect(quiet.trace.filter((s) => s.kind === SERVER).map((s) => [s.name, s.attributes['http.route']])).toEqual([
      [before.server.name, before.server.attributes['http.route']],
    ])
    const tracing = await traced(child, 'hono-otel-tracing', 'GET', '/api/users/7', collected)
    expect(tracing.trace.filter((s) => s.kind === SERVER)).toHaveLength(2)
  })

  it('a streamed answer is named after its route', async () => {
    const before = await traced(child, 'strip', 'GET', '/api/streamed/50', collected)
    expect(before.server.name).toBe('GET /api/streamed/:n')
    expect(before.server.attributes['http.route']).toBe('/api/streamed/:n')
  })
})

describe('with instrumentation-http alone (no instrumentation-express)', () => {
  let child: ChildServer
  const collected: SpanRecord[] = []
  beforeAll(async () => {
    child = await startChildServer('__tests__/fixtures/observability/otel-server.ts', { OTEL_EXPRESS: 'off' })
  }, 30000)
  afterAll(() => child?.stop())

  it('Express routes get no route name, routes moved to Hono get theirs (mount prefix from req.baseUrl)', async () => {
    const name = async (server: string, path: string) => {
      const { server: span } = await traced(child, server, 'GET', path, collected)
      return [span.name, span.attributes['http.route']]
    }
    expect(await name('express', '/api/users/7')).toEqual(['GET', undefined])
    for (const server of MOVED) {
      expect(await name(server, '/api/users/7')).toEqual(['GET /api/users/:id', '/api/users/:id'])
      expect(await name(server, '/api/legacy/x')).toEqual(['GET', undefined])
    }
    // Without the Express instrumentation the mount's pattern is unknown: its path stands in.
    expect(await name('strip', '/t/acme/users/7')).toEqual(['GET /t/acme/users/:id', '/t/acme/users/:id'])
    expect(await name('keep', '/t/acme/users/7')).toEqual(['GET /t/:tenant/users/:id', '/t/:tenant/users/:id'])
  })
})
