import connect from 'connect'
import express from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import request from 'supertest'
import {
  expressMiddleware,
  fetchBridge,
  shadowTrial,
  type ExpressBindings,
  type FetchApp,
  type FetchBridgeOptions,
} from 'express-fetch-bridge'

// Express 4 is installed under an alias; its types are close enough to Express 5's here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express4 = require('express4') as typeof express

// The mistakes a newcomer makes with the bridge, each caught where it is made, with an error that
// names the fix (docs/guide/common-mistakes.md).

const FRONT_DOOR = /fetchBridge\(hono, \{ fallback: app \}\)/
const asApp = (value: unknown) => value as FetchApp

describe('something other than a Fetch app given as the app', () => {
  it.each([
    ['an Express 5 app', () => express(), /got an Express app/],
    ['an Express 4 app', () => express4(), /got an Express app/],
    ['a Connect app', () => connect(), /got a Connect app or Express Router/],
    ['an Express Router', () => express.Router(), /got a Connect app or Express Router/],
    ['a (req, res) listener', () => (_req: unknown, res: { end(): void }) => res.end(), /got a node:http listener/],
    [
      'Express middleware',
      () =>
        function guard(_req: unknown, _res: unknown, next: () => void) {
          next()
        },
      /got a node:http listener/,
    ],
  ])('%s: a TypeError when fetchBridge() is called, naming front-door mode', (_name, make, kind) => {
    expect(() => fetchBridge(asApp(make()))).toThrow(TypeError)
    expect(() => fetchBridge(asApp(make()))).toThrow(kind)
    expect(() => fetchBridge(asApp(make()))).toThrow(FRONT_DOOR)
  })

  it.each([
    ['(request) => Response', (request: Request) => new Response(new URL(request.url).pathname)],
    [
      '(request, env)',
      async (request: Request, env: unknown) => new Response(`${new URL(request.url).pathname} ${typeof env}`),
    ],
    [
      '(request, env, ctx)',
      (request: Request, _env: unknown, ctx: unknown) => new Response(`${new URL(request.url).pathname} ${typeof ctx}`),
    ],
    // Minified: no names to read, so it is taken for what it is given as.
    ['(e, t)', (e: Request, t: unknown) => new Response(`${new URL(e.url).pathname} ${typeof t}`)],
  ])('a fetch function %s is accepted and serves', async (_name, fn) => {
    const app = express()
    app.use(fetchBridge(fn))
    const res = await request(app).get('/x').expect(200)
    expect(res.text.startsWith('/x')).toBe(true)
  })
})

describe('option names', () => {
  it.each([
    ['fallThrough', 'fallthrough'],
    ['overrideGlobals', 'overrideGlobalObjects'],
    ['mountpath', 'mountPath'],
    ['onDispach', 'onDispatch'],
    ['orgin', 'origin'],
  ])('%s: a TypeError naming %s', (given, near) => {
    const options = { [given]: false } as FetchBridgeOptions
    expect(() => fetchBridge(new Hono(), options)).toThrow(
      new TypeError(`fetchBridge: unknown option '${given}' (did you mean '${near}'?)`),
    )
  })

  it('a name near none: a TypeError listing the options', () => {
    expect(() => fetchBridge(new Hono(), { timeout: 5 } as FetchBridgeOptions)).toThrow(
      /^fetchBridge: unknown option 'timeout'; the options are overrideGlobalObjects, fallthrough, honoMiddleware, mountPath, origin, env, fallback, onDispatch/,
    )
  })

  it.each([
    [{ expressRouting: { caseSensitiv: true } }, 'expressRouting.caseSensitiv', 'expressRouting.caseSensitive'],
    [{ expressRouting: { Strict: true } }, 'expressRouting.Strict', 'expressRouting.strict'],
    [{ drain: { maxMS: 100 } }, 'drain.maxMS', 'drain.maxMs'],
    [{ replay: { maxByte: 100 } }, 'replay.maxByte', 'replay.maxBytes'],
  ])('inside a nested option, %j: a TypeError naming %s', (options, given, near) => {
    expect(() => fetchBridge(new Hono(), options as FetchBridgeOptions)).toThrow(
      new TypeError(`fetchBridge: unknown option '${given}' (did you mean '${near}'?)`),
    )
  })

  it('inside a nested option, a name near none: a TypeError listing the names of that option', () => {
    expect(() => fetchBridge(new Hono(), { drain: { limit: 1 } } as FetchBridgeOptions)).toThrow(
      new TypeError("fetchBridge: unknown option 'drain.limit'; the options of drain are maxBytes, maxMs"),
    )
  })

  it.each([
    [{ routes: 'all', sampleRat: 1 }, 'sampleRat', 'sampleRate'],
    [{ routes: 'all', noise: { gapMS: 1 } }, 'noise.gapMS', 'noise.gapMs'],
    [{ routes: [{ route: '/products/:id' }, { route: '/products/:id', canery: 10 }] }, 'routes[1].canery', 'routes[1].canary'],
  ])('shadowTrial(%j): the same rule, a TypeError naming %s', (options, given, near) => {
    expect(() => shadowTrial(options as never)).toThrow(
      new TypeError(`shadowTrial: unknown option '${given}' (did you mean '${near}'?)`),
    )
  })

  it('every documented option is accepted', () => {
    const names = [
      'overrideGlobalObjects',
      'fallthrough',
      'honoMiddleware',
      'mountPath',
      'origin',
      'env',
      'fallback',
      'onDispatch',
      'drain',
      'replay',
    ]
    for (const name of names) expect(() => fetchBridge(new Hono(), { [name]: undefined })).not.toThrow()
  })
})

describe('origin', () => {
  it.each([
    [
      'https://api.example.com/api',
      "; to serve the app under a path, mount the bridge there: app.use('/api', fetchBridge(hono))",
    ],
    [
      'https://api.example.com/v1/',
      "; to serve the app under a path, mount the bridge there: app.use('/v1', fetchBridge(hono))",
    ],
    ['https://api.example.com?x=1', ''],
    ['https://api.example.com/#top', ''],
    ['https://user:pw@api.example.com', ''],
  ])('%s is refused, saying why', (origin, hint) => {
    expect(() => fetchBridge(new Hono(), { origin })).toThrow(
      new TypeError(`fetchBridge: origin must be an origin (scheme, host and port only), got '${origin}'${hint}`),
    )
  })

  it('an origin with a trailing slash is an origin, and is used', async () => {
    const hono = new Hono()
    hono.get('/u', (c) => c.text(c.req.url))
    const res = await request(fetchBridge(hono, { origin: 'https://api.example.com/' })).get('/u?q=1')
    expect(res.text).toBe('https://api.example.com/u?q=1')
  })
})

describe('the same Hono app in front of Express and inside it', () => {
  const TWICE =
    /this Hono app is in front of the fallback app \(front-door mode\) and also mounted inside it .* twice\. Remove that app\.use\(fetchBridge\(\.\.\.\)\) from the fallback app/

  it.each([
    ['an Express 5 app', () => express()],
    ['an Express 4 app', () => express4()],
  ])('in %s, at the top, in a Router or in a sub-app: an error when the front door is made', (_name, make) => {
    const hono = new Hono()
    const top = make()
    top.use(fetchBridge(hono))
    expect(() => fetchBridge(hono, { fallback: top })).toThrow(TWICE)
    const routed = make()
    const router = express.Router()
    router.use('/api', fetchBridge(hono))
    routed.use(router)
    expect(() => fetchBridge(hono, { fallback: routed })).toThrow(TWICE)
    const outer = make()
    const sub = make()
    sub.use(fetchBridge(hono))
    outer.use('/v1', sub)
    expect(() => fetchBridge(hono, { fallback: outer })).toThrow(TWICE)
    expect(() => fetchBridge(hono, { fallback: outer, onDispatch: () => {} })).toThrow(TWICE)
  })

  it('in a Connect app', () => {
    const hono = new Hono()
    const app = connect()
    app.use('/api', fetchBridge(hono))
    expect(() => fetchBridge(hono, { fallback: app })).toThrow(TWICE)
  })

  it('mounted after the front door was made: an error at listen()', () => {
    const hono = new Hono()
    const app = express()
    const frontDoor = fetchBridge(hono, { fallback: app })
    app.use(fetchBridge(hono))
    expect(() => frontDoor.listen(0)).toThrow(TWICE)
  })

  it('another Hono app inside the fallback is fine: both answer their routes', async () => {
    const front = new Hono()
    front.get('/front', (c) => c.text('front'))
    const inner = new Hono()
    inner.get('/inner', (c) => c.text('inner'))
    const app = express()
    app.use(fetchBridge(inner))
    const server = fetchBridge(front, { fallback: app }).listen(0)
    try {
      await request(server).get('/front').expect(200, 'front')
      await request(server).get('/inner').expect(200, 'inner')
    } finally {
      server.close()
    }
  })
})

describe('front-door routes reading the session', () => {
  const SAYS =
    /c\.env\.incoming\.session is not set\. In front-door mode .* hono\.use\(expressMiddleware\(session\(\{ \.\.\. \}\)\)\)/

  function apps(withSession: boolean) {
    const store = new session.MemoryStore()
    const sessionMiddleware = session({ secret: 's', store, resave: false, saveUninitialized: false })
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.onError((err, c) => c.text(err.message, 500))
    if (withSession) hono.use(expressMiddleware({ app: false }, sessionMiddleware))
    hono.post('/login', (c) => {
      ;(c.env.incoming.session as unknown as { user: string }).user = 'ann'
      return c.text('ok')
    })
    hono.get('/me', (c) => c.text((c.env.incoming.session as unknown as { user?: string }).user ?? 'nobody'))
    hono.post('/logout', async (c) => {
      // express-session's destroy() deletes req.session; its own response hooks then read it.
      await new Promise<void>((resolve, reject) =>
        c.env.incoming.session.destroy((err) => (err ? reject(err) : resolve())),
      )
      return c.body(null, 204)
    })
    const legacy = express()
    legacy.use(sessionMiddleware)
    legacy.get('/legacy', (req, res) => res.send((req.session as unknown as { user?: string }).user ?? 'nobody'))
    return { hono, legacy }
  }

  it('without a session middleware in Hono: an error that says what to add', async () => {
    const { hono, legacy } = apps(false)
    const res = await request(fetchBridge(hono, { fallback: legacy }))
      .get('/me')
      .expect(500)
    expect(res.text).toMatch(SAYS)
  })

  it('the fallback app still gets its own session, for requests Hono has no route for', async () => {
    const { hono, legacy } = apps(false)
    await request(fetchBridge(hono, { fallback: legacy }))
      .get('/legacy')
      .expect(200, 'nobody')
  })

  it('with expressMiddleware(session) in Hono: the session works, on both sides', async () => {
    const { hono, legacy } = apps(true)
    const agent = request.agent(fetchBridge(hono, { fallback: legacy }))
    await agent.get('/me').expect(200, 'nobody')
    await agent.post('/login').expect(200, 'ok')
    await agent.get('/me').expect(200, 'ann')
    await agent.get('/legacy').expect(200, 'ann')
  })

  it('a session the middleware destroyed reads as absent, not as a missing middleware (no crash)', async () => {
    const { hono, legacy } = apps(true)
    const agent = request.agent(fetchBridge(hono, { fallback: legacy }))
    await agent.post('/login').expect(200, 'ok')
    await agent.post('/logout').expect(204)
    await agent.get('/me').expect(200, 'nobody')
  })

  it('in middleware mode a missing session reads as undefined, as on Express alone', async () => {
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.get('/me', (c) => c.text(String((c.env.incoming as { session?: unknown }).session)))
    fetchBridge(new Hono(), { fallback: express() }) // a front door elsewhere in the process
    const app = express()
    app.use(fetchBridge(hono))
    await request(app).get('/me').expect(200, 'undefined')
  })
})

describe('shadow trial routes', () => {
  it('a trial route the Hono app does not have: one process warning naming the nearest route', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      const hono = new Hono()
      hono.get('/products/:id', (c) => c.text('x'))
      const trial = shadowTrial({ routes: [{ route: '/product/:id' }, { route: '/late' }, { route: '/products/:id' }] })
      express().use(fetchBridge(hono, { shadow: trial }))
      express().use(fetchBridge(hono, { shadow: trial }))
      // Registered after the bridge was made, in the same tick: it counts.
      hono.get('/late', (c) => c.text('late'))
      await new Promise((resolve) => setImmediate(resolve))
      expect(emitWarning.mock.calls).toEqual([
        [
          "express-fetch-bridge: shadowTrial names the route '/product/:id', which the Hono app does not have " +
            "(did you mean '/products/:id'?): Express answers its requests, none is shadowed or sent to the canary. " +
            'Name the route as the Hono app registers it (c.req.routePath).',
          { code: 'EXPRESS_FETCH_BRIDGE_UNKNOWN_TRIAL_ROUTE' },
        ],
      ])
    } finally {
      emitWarning.mockRestore()
    }
  })
})
