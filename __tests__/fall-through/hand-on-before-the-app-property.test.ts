import fc from 'fast-check'
import { Hono } from 'hono'
import { unmatchedCheck } from '../../src/bridge/fallthrough.js'

// The rule "nothing in the app would run for this request" against Hono's real dispatch: for random
// apps (routes and middleware on literal, parameter, wildcard and optional paths, basePath, strict or
// not) and random requests, whenever the check says so, dispatching the request runs no handler.

const segment = fc.constantFrom('api', 'users', 'v1', 'a', 'b', ':id', '*', ':opt?', 'Admin')
const pattern = fc.array(segment, { minLength: 0, maxLength: 3 }).map((parts) => '/' + parts.join('/'))
const pathPart = fc.constantFrom('api', 'users', 'v1', 'a', 'b', '42', 'admin', 'Admin', '%61', '')
const target = fc
  .tuple(fc.array(pathPart, { minLength: 0, maxLength: 4 }), fc.boolean(), fc.boolean())
  .map(([parts, slash, query]) => '/' + parts.join('/') + (slash ? '/' : '') + (query ? '?q=1' : ''))
const method = fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE', 'OPTIONS')
const registration = fc.record({
  kind: fc.constantFrom('use', 'get', 'post', 'all', 'on'),
  path: pattern,
})
const appShape = fc.record({
  strict: fc.boolean(),
  base: fc.constantFrom('', '/api', '/v1'),
  registrations: fc.array(registration, { maxLength: 6 }),
})

it('never says "unmatched" for a request Hono would run a handler for', async () => {
  await fc.assert(
    fc.asyncProperty(appShape, method, target, async (shape, m, t) => {
      const ran: string[] = []
      let hono = new Hono({ strict: shape.strict })
      if (shape.base !== '') hono = hono.basePath(shape.base)
      for (const { kind, path } of shape.registrations) {
        const label = `${kind} ${path}`
        if (kind === 'use') {
          hono.use(path, async (_c, next) => {
            ran.push(label)
            await next()
          })
        } else if (kind === 'on') {
          hono.on(['PUT', 'DELETE'], path, (c) => (ran.push(label), c.text(label)))
        } else {
          hono[kind](path, (c) => (ran.push(label), c.text(label)))
        }
      }
      const unmatched = unmatchedCheck(hono as never)!
      const says = unmatched(m, t)
      const res = await hono.fetch(new Request('http://localhost' + t, { method: m }))
      if (says) {
        expect(ran).toEqual([])
        expect(res.status).toBe(404)
      }
    }),
    { numRuns: 4000 },
  )
})

it('finds unmatched requests (the check is not always false)', () => {
  const hono = new Hono()
  hono.get('/api/users', (c) => c.text('x'))
  const unmatched = unmatchedCheck(hono as never)!
  expect(unmatched('GET', '/legacy')).toBe(true)
  expect(unmatched('GET', '/api/users')).toBe(false)
  expect(unmatched('HEAD', '/api/users')).toBe(false)
  expect(unmatched('POST', '/api/users')).toBe(true)
})
