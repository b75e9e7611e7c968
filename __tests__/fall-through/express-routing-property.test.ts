import http from 'node:http'
import fc from 'fast-check'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { listen, request } from '../helpers/transport.js'

// `expressRouting` against real dispatch, through sockets. Random Express 4/5 apps (both routing
// settings, on the app or on a Router with its own options, the bridge in the app, in the Router
// (mountPath strip or keep) or in front of it) get Hono twins of some of their routes. Three servers
// answer every probe (each pattern filled in, in other letter case, with a trailing slash more or
// less, under the mount prefix in either case):
//   A  the Express app alone;
//   C  the Express app with only the twinned routes (which twin Express itself routes a probe to);
//   B  the bridge with the Hono twins in front of the Express app.
// With the option on, B answers a probe with the Hono twin of the route C answers it with (so every
// request that reached a twinned Express route in A reaches its twin, an earlier twin aside), with
// the parameters as Express gave them; every other probe B answers as A.

const APPS = 20
const SEED = 33

type Express = (typeof expressVersions)[number][1]
const PATTERNS = ['/', '/users', '/users/:id', '/Users/:id/posts', '/items/', '/a/B', '/users/new', '/:slug']
const VALUES = ['Ab', '7']
type Mode = 'app' | 'router-strip' | 'router-keep' | 'front-door'

interface Spec {
  mode: Mode
  caseSensitive: boolean
  strict: boolean
  routes: Array<{ method: 'get' | 'post'; path: string; twin: boolean }>
}

const specs: fc.Arbitrary<Spec> = fc.record({
  mode: fc.constantFrom<Mode>('app', 'router-strip', 'router-keep', 'front-door'),
  caseSensitive: fc.boolean(),
  strict: fc.boolean(),
  routes: fc.array(
    fc.record({
      method: fc.constantFrom<'get' | 'post'>('get', 'get', 'post'),
      path: fc.constantFrom(...PATTERNS),
      twin: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  ),
})

function variants(path: string): string[] {
  const out = new Set([
    path,
    path.toUpperCase(),
    path.toLowerCase(),
    path.replace(/\/([a-z])/g, (_m, c: string) => '/' + c.toUpperCase()),
  ])
  for (const p of [...out]) {
    if (p.length > 1) out.add(p.endsWith('/') ? p.slice(0, -1) : p + '/')
    out.add(p + '/' + (p.endsWith('/') ? '' : '/'))
  }
  return [...out]
}

function probes(spec: Spec): string[] {
  const paths = new Set<string>()
  const under = spec.mode.startsWith('router') ? ['/r', '/R'] : ['']
  for (const pattern of PATTERNS) {
    for (const value of VALUES) {
      const filled = pattern.replace(/:\w+/g, value)
      for (const v of variants(filled))
        for (const prefix of under) paths.add(prefix === '' ? v : v === '/' ? prefix : prefix + v)
    }
  }
  paths.add('/nothing/here')
  return [...paths]
}

const answer = (tag: string, params: Record<string, string>) =>
  `${tag} ${JSON.stringify(Object.fromEntries(Object.entries(params).sort()))}`

function build(
  express: Express,
  spec: Spec,
  { only, bridge }: { only?: 'twins'; bridge?: boolean },
): http.RequestListener {
  const app = express()
  app.set('case sensitive routing', spec.caseSensitive)
  app.set('strict routing', spec.strict)
  const inRouter = spec.mode.startsWith('router')
  const container = inRouter ? express.Router({ caseSensitive: spec.caseSensitive, strict: spec.strict }) : app
  const hono = new Hono()
  const keep = spec.mode === 'router-keep'
  spec.routes.forEach((r, i) => {
    if (r.twin) {
      const path = keep ? (r.path === '/' ? '/r' : '/r' + r.path) : r.path
      hono[r.method](path, (c) => c.text(answer(`H:R${i}`, c.req.param() as Record<string, string>)))
    }
  })
  if (bridge && spec.mode !== 'front-door') {
    container.use(fetchBridge(hono, { expressRouting: true, mountPath: keep ? 'keep' : 'strip' }))
  }
  spec.routes.forEach((r, i) => {
    if (only === 'twins' && !r.twin) return
    container[r.method](r.path, (req: { params: Record<string, string> }, res: { send(s: string): void }) =>
      res.send(answer(`E:R${i}`, req.params)),
    )
  })
  if (inRouter) app.use('/r', container)
  app.use((_req: unknown, res: { status(n: number): { send(s: string): void } }) => res.status(404).send('404'))
  if (bridge && spec.mode === 'front-door') return fetchBridge(hono, { expressRouting: true, fallback: app })
  return app as unknown as http.RequestListener
}

async function answers(listener: http.RequestListener, paths: string[]): Promise<Map<string, string>> {
  const server = await listen(listener)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
  const out = new Map<string, string>()
  try {
    const all = paths.flatMap((p) => ['GET', 'POST', 'HEAD'].map((m) => [m, p] as const))
    const one = async ([method, path]: readonly [string, string]) => {
      const { res, body } = await request(server.url, { method, path, agent })
      // HEAD has no body: the route is told by a header-free status, so compare status only.
      out.set(`${method} ${path}`, method === 'HEAD' ? String(res.statusCode) : `${res.statusCode} ${body.toString()}`)
    }
    for (let i = 0; i < all.length; i += 32) await Promise.all(all.slice(i, i + 32).map(one))
  } finally {
    agent.destroy()
    await server.close()
  }
  return out
}

describe.each(expressVersions)('expressRouting on %s, against real dispatch', (_name, express) => {
  it(`${APPS} generated apps: a probe reaches a Hono twin exactly when Express routes it to the twinned route`, async () => {
    let reachedTwin = 0
    let otherCase = 0
    await fc.assert(
      fc.asyncProperty(specs, async (spec) => {
        const paths = probes(spec)
        const [alone, twins, bridged] = await Promise.all([
          answers(build(express, spec, {}), paths),
          answers(build(express, spec, { only: 'twins' }), paths),
          answers(build(express, spec, { bridge: true }), paths),
        ])
        const wrong: string[] = []
        for (const [probe, got] of bridged) {
          const twin = twins.get(probe)!
          // Hono's twin answers with the tag and parameters of the Express route it stands for.
          const expected = twin.startsWith('200 ')
            ? twin.replace('200 E:', '200 H:')
            : probe.startsWith('HEAD') && twin === '200'
              ? twin
              : alone.get(probe)!
          if (got !== expected)
            wrong.push(`${probe}: ${got} (expected ${expected}; Express alone: ${alone.get(probe)})`)
          if (twin.startsWith('200 ')) {
            reachedTwin++
            if (probe.toLowerCase() !== probe || probe.endsWith('/')) otherCase++
          }
        }
        if (wrong.length > 0) wrong.unshift(JSON.stringify(spec))
        expect(wrong.slice(0, 8)).toEqual([])
      }),
      { numRuns: APPS, seed: SEED, endOnFailure: true },
    )
    // Worth something only if many probes reached twins, case and slash variants among them.
    expect(reachedTwin).toBeGreaterThan(APPS * 5)
    expect(otherCase).toBeGreaterThan(APPS * 2)
  }, 300_000)
})
