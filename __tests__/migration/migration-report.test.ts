import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge, migrationReport, type ExpressRouteEntry, type HonoRouteEntry, type MigrationReport } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

const fromExpress = (_req: unknown, res: any) => res.send('express')
const fromHono = (c: { text(s: string): Response }) => c.text('hono')

function row(report: MigrationReport, side: 'express', method: string, path: string): ExpressRouteEntry
function row(report: MigrationReport, side: 'hono', method: string, path: string): HonoRouteEntry
function row(report: MigrationReport, side: 'express' | 'hono', method: string, path: string) {
  const found = (report[side] as Array<ExpressRouteEntry | HonoRouteEntry>).find((r) => r.method === method && r.path === path)
  if (!found) throw new Error(`no ${side} row ${method} ${path} in\n${report.format()}`)
  return found
}

describe.each(expressVersions)('migrationReport on %s', (_name, express) => {
  // Express matches other case and a trailing slash by default, Hono neither: these apps route
  // exactly (case sensitive, strict), so that a Hono route can take every request of an Express one.
  const exact = () => {
    const app = express()
    app.set('case sensitive routing', true)
    app.set('strict routing', true)
    return app
  }
  const exactRouter = () => express.Router({ caseSensitive: true, strict: true })

  function server() {
    const hono = new Hono()
    hono.use('*', async (_c, next) => {
      await next()
    })
    hono.get('/users', fromHono)
    hono.get('/items/:id{[0-9]+}', fromHono)
    hono.get('/api/v1/orders', fromHono)
    hono.delete('/users/:id', fromHono)
    hono.get('/legacy', fromHono)
    const app = exact()
    app.get('/legacy', fromExpress)
    app.use(fetchBridge(hono))
    app.get('/users', fromExpress)
    app.post('/users', fromExpress)
    app.get('/items/:id', fromExpress)
    const api = exactRouter()
    api.get('/orders', fromExpress)
    api.get('/invoices', fromExpress)
    app.use('/api/:version', api)
    const admin = exact()
    admin.get('/stats', fromExpress)
    app.use('/admin', admin)
    return { app, hono }
  }

  it('finds the Express route a Hono route shadows (dead code) and the ones still live', () => {
    const { app, hono } = server()
    const report = migrationReport(app, hono)
    expect(row(report, 'express', 'GET', '/users')).toMatchObject({ status: 'shadowed', honoRoutes: ['GET /users'] })
    expect(row(report, 'express', 'POST', '/users').status).toBe('express')
    expect(row(report, 'express', 'GET', '/admin/stats').status).toBe('express')
    expect(row(report, 'hono', 'GET', '/users')).toMatchObject({ status: 'moved', expressRoutes: ['GET /users'] })
    expect(row(report, 'hono', 'DELETE', '/users/:id')).toMatchObject({ status: 'hono-only', expressRoutes: [] })
  })

  it('reports app.all() as one route for every method, shadowed only in part by a Hono GET', () => {
    const hono = new Hono().get('/both', fromHono)
    const app = exact()
    app.use(fetchBridge(hono))
    app.all('/both', fromExpress)
    const report = migrationReport(app, hono)
    const rows = report.express.filter((e) => e.path === '/both')
    expect(rows.map((e) => [e.method, e.status])).toEqual([['*', 'partly-shadowed']])
    expect(report.partlyMoved).toEqual([{ path: '/both', hono: ['GET'], express: ['*'] }])
  })

  it('lists a path moved for GET only as partly moved', () => {
    const report = migrationReport(server().app)
    expect(report.partlyMoved).toEqual([{ path: '/users', hono: ['GET'], express: ['POST'] }])
  })

  it('sees through a router mounted under a prefix with a parameter', () => {
    const report = migrationReport(server().app)
    // Hono took /api/v1/orders only: other versions still reach the Express route.
    expect(row(report, 'express', 'GET', '/api/:version/orders')).toMatchObject({ status: 'partly-shadowed', honoRoutes: ['GET /api/v1/orders'] })
    expect(row(report, 'express', 'GET', '/api/:version/invoices').status).toBe('express')
    expect(row(report, 'hono', 'GET', '/api/v1/orders').expressRoutes).toEqual(['GET /api/:version/orders'])
  })

  it("uses Hono's own matching: a constrained parameter shadows only part of an Express route", () => {
    const entry = row(migrationReport(server().app), 'express', 'GET', '/items/:id')
    expect(entry.status).toBe('partly-shadowed')
    expect(entry.samples).toEqual(expect.arrayContaining([
      { method: 'GET', path: '/items/1', servedBy: 'hono', answeredBy: 'GET /items/:id{[0-9]+}' },
      { method: 'GET', path: '/items/sample', servedBy: 'express', answeredBy: 'GET /items/:id' },
    ]))
  })

  it('reports a Hono route an Express route before the bridge still answers as unreachable', () => {
    const report = migrationReport(server().app)
    expect(row(report, 'hono', 'GET', '/legacy').status).toBe('unreachable')
    expect(row(report, 'express', 'GET', '/legacy').status).toBe('express')
  })

  it('agrees with what the server really answers for every sample request', async () => {
    const { app } = server()
    const report = migrationReport(app)
    const samples = [...report.express, ...report.hono].flatMap((r) => r.samples)
    expect(samples.length).toBeGreaterThan(10)
    for (const sample of samples) {
      const res = await request(app)[sample.method.toLowerCase() as 'get'](sample.path)
      expect(`${sample.method} ${sample.path} ${res.text}`).toBe(`${sample.method} ${sample.path} ${sample.servedBy}`)
    }
  })

  it('models a bridge mounted under a prefix, stripping or keeping it', () => {
    const stripped = new Hono().get('/users', fromHono)
    const kept = new Hono().get('/v2/users', fromHono)
    const app = exact()
    app.use('/v1', fetchBridge(stripped))
    app.use('/v2', fetchBridge(kept, { mountPath: 'keep' }))
    app.get('/v1/users', fromExpress)
    app.get('/v2/users', fromExpress)
    app.get('/users', fromExpress)
    const v1 = migrationReport(app, stripped)
    expect(v1.bridges).toEqual([{ path: '/v1', mountPath: 'strip', detected: true, expressRouting: false }])
    expect(row(v1, 'express', 'GET', '/v1/users').status).toBe('shadowed')
    expect(row(v1, 'express', 'GET', '/users').status).toBe('express')
    const v2 = migrationReport(app, kept)
    expect(v2.bridges).toEqual([{ path: '/v2', mountPath: 'keep', detected: true, expressRouting: false }])
    expect(row(v2, 'express', 'GET', '/v2/users').status).toBe('shadowed')
    expect(row(v2, 'express', 'GET', '/v1/users').status).toBe('express')
  })

  it('takes a front-door bridge, or assumes the Hono app in front at a given prefix', () => {
    const hono = new Hono().get('/users', fromHono)
    const app = exact()
    app.get('/users', fromExpress)
    app.get('/api/users', fromExpress)
    const frontDoor = migrationReport(fetchBridge(hono, { fallback: app }))
    expect(row(frontDoor, 'express', 'GET', '/users').status).toBe('shadowed')
    const assumed = migrationReport(app, hono, { prefix: '/api' })
    expect(assumed.bridges).toEqual([{ path: '/api', mountPath: 'strip', detected: false, expressRouting: false }])
    expect(row(assumed, 'express', 'GET', '/api/users').status).toBe('shadowed')
    expect(row(assumed, 'express', 'GET', '/users').status).toBe('express')
  })

  it('reads routes behind a bridge used as middleware with a fallback router', () => {
    const hono = new Hono().get('/users', fromHono)
    const legacy = exactRouter()
    legacy.get('/users', fromExpress)
    const app = exact()
    app.use('/api', fetchBridge(hono, { fallback: legacy }))
    expect(row(migrationReport(app), 'express', 'GET', '/api/users').status).toBe('shadowed')
  })

  it('samples wildcards and optional parts in the syntax of each Express version', async () => {
    const hono = new Hono().get('/files/*', fromHono).get('/docs/:page?', fromHono)
    const app = exact()
    app.use(fetchBridge(hono))
    const v5 = _name === 'Express 5'
    app.get(v5 ? '/files/*path' : '/files/*', fromExpress)
    app.get(v5 ? '/docs{/:page}' : '/docs/:page?', fromExpress)
    const report = migrationReport(app)
    expect(report.express.map((r) => r.status)).toEqual(['shadowed', 'shadowed'])
    const paths = report.express.flatMap((r) => r.samples.map((s) => s.path))
    expect(paths).toEqual(expect.arrayContaining(['/files/x/y', '/docs', '/docs/1']))
    for (const path of paths) await request(app).get(path).expect(200, 'hono')
  })

  it("sees a Hono catch-all shadow every Express route of its method", () => {
    const app = exact()
    app.get('/first', fromExpress)
    app.use(fetchBridge(new Hono().get('*', fromHono)))
    app.get('/a/:id', fromExpress)
    app.post('/a/:id', fromExpress)
    if (_name === 'Express 4') app.get('*', fromExpress)
    const report = migrationReport(app)
    expect(report.express.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/first', 'express'],
      ['GET', '/a/:id', 'shadowed'],
      ['POST', '/a/:id', 'express'],
      ...(_name === 'Express 4' ? [['GET', '*', 'shadowed']] : []),
    ])
    // Partly reachable: the route before the bridge still wins for /first.
    expect(report.hono).toEqual([expect.objectContaining({ path: '/*', status: 'moved' })])
    expect(report.hono[0].samples).toContainEqual({ method: 'GET', path: '/first', servedBy: 'express', answeredBy: 'GET /first' })
    expect(report.hono[0].expressRoutes).not.toContain('GET /first')
    expect(report.format()).toMatch(/replaces an Express route; Express answers first \(1 of \d+ sample requests\)/)
  })

  it('marks a RegExp path as unchecked instead of guessing', () => {
    const app = exact()
    app.use(fetchBridge(new Hono().get('/x', fromHono)))
    app.get(/^\/re/, fromExpress)
    const report = migrationReport(app)
    expect(report.express[0]).toMatchObject({ status: 'unchecked', samples: [] })
    expect(report.summary.unchecked).toBe(1)
  })

  it('prints a table and serialises to JSON', () => {
    const report = migrationReport(server().app)
    const text = report.format()
    expect(text).toBe(String(report))
    expect(text).toMatch(/^ {2}shadowed +GET +\/users +GET \/users +dead code/m)
    expect(text).toMatch(/^ {2}hono-only +DELETE +\/users\/:id/m)
    expect(text).toMatch(/^ {2}\/users +GET +POST$/m)
    const json = JSON.parse(JSON.stringify(report))
    expect(Object.keys(json)).toEqual(['bridges', 'express', 'hono', 'partlyMoved', 'summary', 'shadow'])
    expect(json.summary).toEqual({
      expressRoutes: 7, shadowed: 1, partlyShadowed: 2, live: 4, underTrial: 0,
      honoRoutes: 5, moved: 3, honoOnly: 1, unreachable: 1, honoUnderTrial: 0, unchecked: 0,
    })
  })
})

describe('migrationReport input', () => {
  it('rejects what is not an Express app, and a missing Hono app, with a clear error', () => {
    expect(() => migrationReport({})).toThrow(/expected an Express 4\/5 app/)
    expect(() => migrationReport(expressVersions[0][1]())).toThrow(/expected a Hono app/)
  })
})

describe.each(expressVersions)('migrationReport on %s, with its default routing', (_name, express) => {
  // Express matches other case and a trailing slash by default; Hono matches neither (a trailing
  // slash only under strict: false). Deleting the Express route would turn those requests into 404s.
  it('an Express route Hono answers only in its exact form is partly shadowed, and the note says what still reaches it', () => {
    const hono = new Hono().get('/users', fromHono)
    const app = express()
    app.use(fetchBridge(hono))
    app.get('/users', fromExpress)
    const report = migrationReport(app, hono)
    const entry = row(report, 'express', 'GET', '/users')
    expect(entry.status).toBe('partly-shadowed')
    const live = entry.samples.filter((s) => s.servedBy === 'express').map((s) => s.path)
    expect(live).toEqual(expect.arrayContaining(['/users/', '/USERS', '/Users']))
    expect(report.format()).toMatch(/still reached by GET \/users\/, GET \/USERS, GET \/Users \(expressRouting: true takes the trailing slash; expressRouting: true takes other case\)/)
  })

  it('with expressRouting the same route is shadowed: Hono answers its other case and trailing slash too', () => {
    const hono = new Hono().get('/users', fromHono).get('/users/:id', fromHono)
    const app = express()
    app.use(fetchBridge(hono, { expressRouting: true }))
    app.get('/users', fromExpress)
    app.get('/users/:id', fromExpress)
    const report = migrationReport(app, hono)
    expect(report.bridges).toEqual([{ path: '/', mountPath: 'strip', detected: true, expressRouting: true }])
    expect(row(report, 'express', 'GET', '/users')).toMatchObject({ status: 'shadowed', honoRoutes: ['GET /users'] })
    expect(row(report, 'express', 'GET', '/users/:id')).toMatchObject({
      status: 'shadowed',
      honoRoutes: ['GET /users/:id'],
    })
    expect(row(report, 'express', 'GET', '/users').samples.map((s) => s.path)).toEqual(
      expect.arrayContaining(['/users/', '/USERS']),
    )
    expect(report.format()).toMatch(/^Bridge at \/ \(mountPath: strip, expressRouting\)$/m)
  })

  it('with expressRouting under case sensitive routing, other case stays with Express: partly shadowed', () => {
    const hono = new Hono().get('/users', fromHono)
    const app = express()
    app.set('case sensitive routing', true)
    app.use(fetchBridge(hono, { expressRouting: true }))
    app.get('/users', fromExpress)
    app.get('/Users', fromExpress)
    const report = migrationReport(app, hono)
    // Express routes /USERS to neither, /Users to its own route: Hono takes /users and /users/ only.
    expect(row(report, 'express', 'GET', '/users').status).toBe('shadowed')
    expect(row(report, 'express', 'GET', '/Users').status).toBe('express')
  })

  it("an assumed bridge takes expressRouting from the options, with the Express app's settings", () => {
    const hono = new Hono().get('/users', fromHono)
    const app = express()
    app.get('/users', fromExpress)
    expect(row(migrationReport(app, hono), 'express', 'GET', '/users').status).toBe('partly-shadowed')
    expect(row(migrationReport(app, hono, { expressRouting: true }), 'express', 'GET', '/users').status).toBe(
      'shadowed',
    )
    app.set('strict routing', true)
    const strict = express()
    strict.set('strict routing', true)
    strict.get('/users', fromExpress)
    expect(row(migrationReport(strict, hono, { expressRouting: true }), 'express', 'GET', '/users').status).toBe(
      'shadowed',
    )
    expect(
      row(migrationReport(strict, hono, { expressRouting: { strict: false } }), 'express', 'GET', '/users').status,
    ).toBe('shadowed')
    // A front-door bridge reads its fallback's settings.
    const frontDoor = fetchBridge(hono, { fallback: app, expressRouting: true })
    expect(row(migrationReport(frontDoor), 'express', 'GET', '/users').status).toBe('shadowed')
  })

  it('flags a Hono route that repeats the mount path of its bridge (reachable only under it twice)', () => {
    const hono = new Hono().get('/api/users', fromHono).get('/orders', fromHono)
    const app = express()
    app.use('/api', fetchBridge(hono))
    app.get('/api/users', fromExpress)
    const report = migrationReport(app, hono)
    expect(row(report, 'hono', 'GET', '/api/users').warnings).toEqual([
      'repeats the mount path /api: reachable at /api/api/users',
    ])
    expect(row(report, 'hono', 'GET', '/orders').warnings).toEqual([])
    expect(row(report, 'express', 'GET', '/api/users').status).toBe('express')
    expect(report.format()).toMatch(
      /GET +\/api\/users .*; repeats the mount path \/api: reachable at \/api\/api\/users$/m,
    )
    // Under mountPath: 'keep' the app sees /api: no warning.
    const keep = express()
    keep.use('/api', fetchBridge(hono, { mountPath: 'keep' }))
    expect(row(migrationReport(keep, hono), 'hono', 'GET', '/api/users').warnings).toEqual([])
  })


  it('with Hono strict: false the trailing slash moves too; other case still reaches Express', () => {
    const hono = new Hono({ strict: false }).get('/users', fromHono)
    const app = express()
    app.use(fetchBridge(hono))
    app.get('/users', fromExpress)
    const entry = row(migrationReport(app, hono), 'express', 'GET', '/users')
    const live = entry.samples.filter((s) => s.servedBy === 'express').map((s) => s.path)
    expect(entry.status).toBe('partly-shadowed')
    expect(live).not.toContain('/users/')
    expect(live).toContain('/USERS')
  })

  it('a Hono route registered after one that answers the same requests is unreachable', () => {
    const hono = new Hono()
    hono.all('/users/:id', fromHono)
    hono.get('/users/:id', fromHono)
    hono.get('/files/*', fromHono)
    hono.get('/files/readme', fromHono)
    const app = express()
    app.use(fetchBridge(hono))
    const report = migrationReport(app, hono)
    expect(row(report, 'hono', 'GET', '/users/:id').status).toBe('unreachable')
    expect(row(report, 'hono', 'GET', '/files/readme').status).toBe('unreachable')
    expect(row(report, 'hono', 'ALL', '/users/:id').status).toBe('hono-only')
  })

  it("a Hono '/users/*' also answers /users, before an Express wildcard route behind it", () => {
    const hono = new Hono().get('/users/*', fromHono)
    const app = express()
    app.use(fetchBridge(hono))
    app.get(_name.endsWith('4') ? '/users/*' : '/users/*splat', fromExpress)
    app.get('/users', fromExpress)
    const report = migrationReport(app, hono)
    expect(row(report, 'hono', 'GET', '/users/*').status).toBe('moved')
    expect(row(report, 'hono', 'GET', '/users/*').samples).toContainEqual({ method: 'GET', path: '/users', servedBy: 'hono', answeredBy: 'GET /users/*' })
  })

  it('counts only the requests that reach an Express route without Hono', () => {
    const hono = new Hono().get('/items', fromHono)
    const app = express()
    app.set('case sensitive routing', true)
    app.set('strict routing', true)
    app.get(_name.endsWith('4') ? '/items/:id?' : '/items{/:id}', fromExpress)
    app.use(fetchBridge(hono))
    app.get('/:id', fromExpress)
    const report = migrationReport(app, hono)
    // /items goes to the earlier Express route anyway: Hono takes nothing from GET /:id.
    expect(row(report, 'express', 'GET', '/:id').status).toBe('express')
  })
})
