import { Hono } from 'hono'
import { expressRouted, type ExpressRoutingSettings } from '../../src/core/express-matching.js'
import type { HonoRoutes } from '../../src/core/hono-routes.js'
import { routedTarget } from '../../src/core/routed-target.js'

// The one rule of expressRouting, table-driven: the path Hono must route on so that a request reaches
// the route Express would route it to (the property test in fall-through/ compares with real Express).

const DEFAULTS: ExpressRoutingSettings = { caseSensitive: false, strict: false }
const ok = () => new Response('ok')

function app(...paths: string[]): HonoRoutes {
  const hono = new Hono()
  for (const path of paths) hono.get(path, ok)
  return hono as unknown as HonoRoutes
}

describe('expressRouted', () => {
  const hono = app('/users', '/users/:id', '/Users/:id/Posts', '/items/', '/files/*', '/n/:id{[0-9]+}', '/opt/:x?')
  it.each([
    ['/users', '/users'],
    ['/USERS', '/users'],
    ['/users/', '/users'],
    ['/users//', undefined],
    ['/Users/AbC', '/users/AbC'],
    ['/users/AbC/posts', '/Users/AbC/Posts'],
    ['/items', '/items/'],
    ['/ITEMS/', '/items/'],
    ['/Files', '/files'],
    ['/FILES/A/b/', '/files/A/b/'],
    ['/N/42/', '/n/42'],
    ['/n/x', undefined],
    ['/OPT', '/opt'],
    ['/OPT/Q/', '/opt/Q'],
    ['/nothing', undefined],
  ])('%s → %s (Express defaults)', (path, expected) => {
    expect(expressRouted(hono, 'GET', path, DEFAULTS)).toBe(expected)
  })

  it('keeps literal case under case sensitive routing, and the slash under strict routing', () => {
    expect(expressRouted(hono, 'GET', '/USERS', { caseSensitive: true, strict: false })).toBeUndefined()
    expect(expressRouted(hono, 'GET', '/users/', { caseSensitive: true, strict: false })).toBe('/users')
    expect(expressRouted(hono, 'GET', '/users/', { caseSensitive: false, strict: true })).toBeUndefined()
    expect(expressRouted(hono, 'GET', '/USERS', { caseSensitive: false, strict: true })).toBe('/users')
    // Parameters are never the route's letters: their case is the client's under either setting.
    expect(expressRouted(hono, 'GET', '/users/ABC', { caseSensitive: true, strict: true })).toBe('/users/ABC')
  })

  it('lets a kept mount prefix match in any case', () => {
    const kept = app('/api/users')
    const sensitive = { caseSensitive: true, strict: true }
    expect(expressRouted(kept, 'GET', '/API/users', sensitive, 4)).toBe('/api/users')
    expect(expressRouted(kept, 'GET', '/API/Users', sensitive, 4)).toBeUndefined()
  })

  it('routes by method (HEAD as GET) and takes the first route registered, as Express does', () => {
    const hono = new Hono()
    hono.post('/form', ok)
    hono.get('/A/:x', ok)
    hono.get('/a/:x', ok)
    const routes = hono as unknown as HonoRoutes
    expect(expressRouted(routes, 'GET', '/FORM', DEFAULTS)).toBeUndefined()
    expect(expressRouted(routes, 'POST', '/FORM', DEFAULTS)).toBe('/form')
    expect(expressRouted(routes, 'HEAD', '/a/1', DEFAULTS)).toBe('/A/1')
  })

  it('leaves middleware to Hono: app.use() patterns are not routes', () => {
    const hono = new Hono()
    hono.use('*', async (_c, next) => next())
    hono.get('/users', ok)
    expect(expressRouted(hono as unknown as HonoRoutes, 'GET', '/USERS', DEFAULTS)).toBe('/users')
  })

  it('sees routes added after the first request', () => {
    const hono = new Hono()
    hono.get('/a', ok)
    const routes = hono as unknown as HonoRoutes
    expect(expressRouted(routes, 'GET', '/B', DEFAULTS)).toBeUndefined()
    hono.get('/b', ok)
    expect(expressRouted(routes, 'GET', '/B', DEFAULTS)).toBe('/b')
  })
})

describe('routedTarget: the respelling carried onto the raw target', () => {
  const routing = { hono: app('/caf\u00e9/:x', '/users/:id', '/a%2Fb'), settings: DEFAULTS }
  it.each([
    ['/USERS/Ab?Q=1', '/users/Ab?Q=1'],
    ['/CAF%C3%A9/Ab/', '/caf%C3%A9/Ab'],
    ['/users/a%20B/', '/users/a%20B'],
    ['/nothing?x', '/nothing?x'],
    ['/users/1', '/users/1'],
  ])('%s → %s', (target, expected) => {
    expect(routedTarget(routing, 'GET', target)).toBe(expected)
  })
})
