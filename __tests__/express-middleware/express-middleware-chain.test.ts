import express from 'express'
import { Hono } from 'hono'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { expressMiddleware, type ExpressBindings, type FetchBridgeOptions } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { ALL_HOSTS, host, legacyApp, type Hosted } from '../helpers/hono-hosts.js'

type Req = IncomingMessage & Record<string, any>
type Res = ServerResponse & Record<string, any>
type Next = (err?: unknown) => void
/** Hono middleware for every path runs for requests no Hono route has (the default in middleware mode is 'routes'). */
const EVERY_REQUEST: FetchBridgeOptions = { honoMiddleware: 'all' }

let running: Hosted | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

describe.each(ALL_HOSTS)('expressMiddleware() under %s', (hostName) => {
  async function start(hono: Hono<any>, legacy?: express.Express, options?: FetchBridgeOptions): Promise<string> {
    running = await host(hostName, hono, legacy, options)
    return running.url
  }

  it('next() continues the Hono chain; what the middleware put on req and res reaches Hono', async () => {
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.use(
      expressMiddleware((req: Req, res: Res, next: Next) => {
        req.user = { id: 'ada' }
        res.setHeader('x-from-middleware', 'yes')
        next()
      }),
    )
    hono.get('/me', (c) => c.json(c.env.incoming.user ?? null))
    const res = await fetch((await start(hono)) + '/me')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-from-middleware')).toBe('yes')
    expect(await res.json()).toEqual({ id: 'ada' })
  })

  it('a middleware that answers ends the chain: nothing after it runs and nothing more is written', async () => {
    const ran: string[] = []
    const hono = new Hono()
    hono.use(
      expressMiddleware((_req: Req, res: Res) => {
        res.statusCode = 429
        res.setHeader('content-type', 'text/plain')
        res.write('slow ')
        setTimeout(() => res.end('down'), 20)
      }),
    )
    hono.use(async (_c, next) => {
      ran.push('hono middleware')
      await next()
    })
    hono.get('/limited', (c) => {
      ran.push('hono handler')
      return c.text('not this')
    })
    const res = await fetch((await start(hono)) + '/limited')
    expect(res.status).toBe(429)
    expect(await res.text()).toBe('slow down')
    expect(ran).toEqual([])
  })

  it("next(err) reaches Hono's onError with the error's status; the default handler answers with it", async () => {
    const seen: unknown[] = []
    const forbidden = Object.assign(new Error('invalid csrf token'), { status: 403, expose: true })
    const hono = new Hono()
    hono.use('/custom/*', expressMiddleware((_req: Req, _res: Res, next: Next) => next(forbidden)))
    hono.use('/default/*', expressMiddleware((_req: Req, _res: Res, next: Next) => next(forbidden)))
    hono.get('*', (c) => c.text('not this'))
    const custom = new Hono()
    custom.onError((err, c) => {
      seen.push(err)
      return c.text(`onError: ${(err as Error & { status: number }).status}`, (err as Error & { status: 403 }).status)
    })
    custom.route('/', hono)
    const url = await start(custom)
    const res = await fetch(url + '/custom/x')
    expect(res.status).toBe(403)
    expect(await res.text()).toBe('onError: 403')
    expect(seen).toEqual([forbidden])
    await running!.close()
    const url2 = await start(hono)
    const plain = await fetch(url2 + '/default/x')
    expect(plain.status).toBe(403)
    expect(await plain.text()).toBe('invalid csrf token')
  })

  it.each([
    ['throws', () => { throw Object.assign(new Error('thrown'), { status: 418 }) }],
    ['rejects', async () => { throw Object.assign(new Error('rejected'), { status: 418 }) }],
    ['calls next with a string', (_req: Req, _res: Res, next: Next) => next('a string')],
  ])('a middleware that %s becomes an Error for onError', async (_name, mw) => {
    const seen: Error[] = []
    const hono = new Hono()
    hono.onError((err, c) => {
      seen.push(err)
      return c.text(err.message, ((err as { status?: number }).status ?? 500) as 418)
    })
    hono.use(expressMiddleware(mw as (...args: any[]) => unknown))
    hono.get('/', (c) => c.text('not this'))
    const res = await fetch((await start(hono)) + '/')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeInstanceOf(Error)
    expect(await res.text()).toBe(seen[0].message)
    expect(res.status).toBe(_name === 'calls next with a string' ? 500 : 418)
  })

  it("next('route') goes on to the next handler, next('router') past the last; error handlers only see errors", async () => {
    const order: string[] = []
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.use(
      expressMiddleware(
        (_req: Req, _res: Res, next: Next) => (order.push('a'), next('route')),
        (_err: unknown, _req: Req, _res: Res, next: Next) => (order.push('error handler, not called'), next()),
        (_req: Req, _res: Res, next: Next) => (order.push('b'), next(new Error('oops'))),
        (_req: Req, _res: Res, next: Next) => (order.push('skipped after error'), next()),
        (err: Error, req: Req, _res: Res, next: Next) => (order.push(`handled ${err.message}`), (req.recovered = true), next()),
        (_req: Req, _res: Res, next: Next) => (order.push('c'), next('router')),
        (_req: Req, _res: Res, next: Next) => (order.push('skipped after router'), next()),
      ),
    )
    hono.get('/', (c) => c.json({ recovered: (c.env.incoming as any).recovered === true }))
    const res = await fetch((await start(hono)) + '/')
    expect(await res.json()).toEqual({ recovered: true })
    expect(order).toEqual(['a', 'b', 'handled oops', 'c'])
  })

  it("gives req/res Express's API, like an app does (default app: no X-Powered-By)", async () => {
    const hono = new Hono()
    hono.use(
      '/api/*',
      expressMiddleware((req: express.Request, res: express.Response, next: Next) => {
        res.locals.seen = true
        if (req.query.redirect) return res.redirect(302, '/elsewhere')
        if (req.query.json) return res.json({ ua: req.get('user-agent'), q: req.query, ip: typeof req.ip, locals: res.locals.seen })
        next()
      }),
    )
    hono.get('/api/pass', (c) => c.text('passed'))
    const url = await start(hono)
    const json = await fetch(url + '/api/x?json=1&a=2', { headers: { 'user-agent': 'tester' } })
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    // Under middleware mode the outer Express app sets it, as for all its responses.
    expect(json.headers.get('x-powered-by')).toBe(hostName === 'middleware mode' ? 'Express' : null)
    expect(await json.json()).toEqual({ ua: 'tester', q: { json: '1', a: '2' }, ip: 'string', locals: true })
    const redirect = await fetch(url + '/api/x?redirect=1', { redirect: 'manual' })
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/elsewhere')
    expect(await (await fetch(url + '/api/pass')).text()).toBe('passed')
  })

  it('with { app: false } the middleware gets the plain node:http objects', async () => {
    const hono = new Hono()
    hono.use(expressMiddleware({ app: false }, (req: Req, res: Res) => res.end(`${typeof req.get} ${typeof res.json}`)))
    // Middleware for every path that answers itself, on a path no Hono route has: 'all' (middleware mode).
    const res = await fetch(await start(hono, undefined, EVERY_REQUEST))
    // Under middleware mode they already came through the outer Express app.
    expect(await res.text()).toBe(hostName === 'middleware mode' ? 'function function' : 'undefined undefined')
  })

  it.each(expressVersions)("with { app } the middleware gets that app's settings (%s)", async (_name, expressOf) => {
    const app = expressOf()
    app.set('trust proxy', true)
    app.set('json spaces', 2)
    app.set('query parser', 'extended')
    const hono = new Hono()
    hono.use(
      expressMiddleware({ app }, (req: express.Request, res: express.Response) => {
        res.json({ ip: req.ip, q: req.query, protocol: req.protocol })
      }),
    )
    const res = await fetch((await start(hono, undefined, EVERY_REQUEST)) + '/?a[b]=1', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' } })
    expect(res.headers.get('x-powered-by')).toBe('Express')
    const text = await res.text()
    expect(text).toContain('\n  "ip"')
    expect(JSON.parse(text)).toEqual({ ip: '203.0.113.7', q: { a: { b: '1' } }, protocol: 'https' })
  })

  it('an Express app or Router as the handler: its routes answer, the rest continues in Hono', async () => {
    const old = express()
    old.set('trust proxy', true)
    old.get('/old', (req, res) => {
      res.send(`old route for ${req.ip}`)
    })
    const router = express.Router()
    router.get('/routed', (_req, res) => {
      res.send('router route')
    })
    const hono = new Hono()
    hono.use(expressMiddleware(old, router))
    hono.get('/new', (c) => c.text('hono route'))
    // The Express routes run inside Hono's middleware for every path: they get every request with 'all'.
    const url = await start(hono, undefined, EVERY_REQUEST)
    expect(await (await fetch(url + '/old', { headers: { 'x-forwarded-for': '198.51.100.1' } })).text()).toBe('old route for 198.51.100.1')
    expect(await (await fetch(url + '/routed')).text()).toBe('router route')
    expect(await (await fetch(url + '/new')).text()).toBe('hono route')
  })
})

describe('expressMiddleware() with paths', () => {
  it('a Router mounts middleware under a prefix the Express way (prefix stripped), the rest continues', async () => {
    const router = express.Router()
    router.use('/static', (req: Req, res: Res, next: Next) => (req.url === '/file.txt' ? res.end(`file at ${req.url}`) : next()))
    const hono = new Hono()
    hono.use(expressMiddleware(router))
    hono.get('*', (c) => c.text(`hono ${c.req.path}`))
    running = await host('front-door', hono)
    expect(await (await fetch(running.url + '/static/file.txt')).text()).toBe('file at /file.txt')
    expect(await (await fetch(running.url + '/static/other.txt')).text()).toBe('hono /static/other.txt')
  })
})

describe('expressMiddleware() in middleware mode', () => {
  it("puts back the outer app's request API before Express routes behind the bridge run", async () => {
    const other = express()
    other.set('trust proxy', true)
    const legacy = legacyApp()
    legacy.get('/after', (req, res) => {
      res.json({ sameApp: req.app === legacy, ip: req.ip === '203.0.113.9' })
    })
    const hono = new Hono()
    hono.use(expressMiddleware({ app: other }, (req: express.Request, _res: express.Response, next: Next) => {
      ;(req as any).ipInside = req.ip
      next()
    }))
    hono.get('/hono', (c) => c.text('hono'))
    running = await host('middleware mode', hono, legacy)
    const res = await fetch(running.url + '/after', { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(await res.json()).toEqual({ sameApp: true, ip: false })
  })
})

describe('expressMiddleware() without Node bindings', () => {
  it('fails with an error that says how to run it (hono.request() in a unit test)', async () => {
    const errors: Error[] = []
    const hono = new Hono()
    hono.onError((err, c) => {
      errors.push(err)
      return c.text('failed', 500)
    })
    hono.use(expressMiddleware((_req: Req, _res: Res, next: Next) => next()))
    hono.get('/', (c) => c.text('not this'))
    const res = await hono.request('/')
    expect(res.status).toBe(500)
    expect(errors).toHaveLength(1)
    expect(errors[0].message).toMatch(/c\.env\.incoming and c\.env\.outgoing.*fetchBridge\(\).*@hono\/node-server.*supertest/s)
  })

  it('rejects bad arguments when it is built', () => {
    expect(() => expressMiddleware({ app: (() => {}) as any })).toThrow(/app must be an Express application \(express\(\)\) or false/)
    expect(() => expressMiddleware('nope' as any)).toThrow(/expected middleware functions, got string/)
    expect(() => expressMiddleware({ vars: 'user' as any })).toThrow(/vars must be an array/)
  })
})
