import http from 'node:http'
import { getRequestListener } from '@hono/node-server'
import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'
import { expressMiddleware, fetchBridge, type FetchBridgeOptions } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

// Security invariant (README, Security): an Express guard on a prefix runs for every request that a
// Hono route under that prefix answers, whatever the encoding, case, slashes or dot segments of the
// target. Express routes on the raw target (case-insensitively), Hono on the path after decodeURI;
// the targets below mix every way they read a path apart, and each request goes through a socket.

const RUNS = 10_000
const SEED = 20261204

type Req = http.IncomingMessage & { guarded?: boolean }
const guard: express.RequestHandler = (req, _res, next) => {
  ;(req as Req).guarded = true
  next()
}

/** Hono routes under `<base>/admin` answer `admin <guarded>`; others answer `open`. */
function honoApp(base: string, inside?: express.Router): Hono<any> {
  const hono = new Hono<any>()
  if (inside) hono.use(expressMiddleware(inside))
  const answer = (c: any) => c.text(`admin ${c.env.incoming.guarded === true}`)
  hono.get(`${base}/admin`, answer)
  hono.get(`${base}/admin/dashboard`, answer)
  hono.get(`${base}/admin/users/:id`, answer)
  hono.get(`${base}/admin/files/*`, answer)
  hono.get(`${base}/public/:name`, (c) => c.text('open'))
  return hono
}

const guardRouter = (prefix: string) => express.Router().use(prefix, guard)

interface Mode {
  name: string
  /** The mount prefix the targets start with ('' at the root). */
  base: string
  start(): Promise<Running>
}

const notFound: express.RequestHandler = (_req, res) => {
  res.status(404).send('express 404')
}

/** The modes, their bridges made with `o` added to their options. */
const modes = (o: FetchBridgeOptions, tag = ''): Mode[] => [
  {
    name: 'guard in Express before the bridge (root)' + tag,
    base: '',
    start: () => listen(express().use('/admin', guard).use(fetchBridge(honoApp(''), o)).use(notFound)),
  },
  {
    name: "guard in Express before the bridge (under /api, mountPath 'strip')" + tag,
    base: '/api',
    start: () => listen(express().use('/api/admin', guard).use('/api', fetchBridge(honoApp(''), o)).use(notFound)),
  },
  {
    name: "guard in Express before the bridge (under /api, mountPath 'keep')" + tag,
    base: '/api',
    start: () =>
      listen(express().use('/api/admin', guard).use('/api', fetchBridge(honoApp('/api'), { ...o, mountPath: 'keep' })).use(notFound)),
  },
  {
    name: 'guard in expressMiddleware (front door)' + tag,
    base: '',
    start: () => listen(fetchBridge(honoApp('', guardRouter('/admin')), { ...o, fallback: express().use(notFound) })),
  },
  {
    name: 'guard in expressMiddleware (middleware mode)' + tag,
    base: '',
    start: () => listen(express().use(fetchBridge(honoApp('', guardRouter('/admin')), o)).use(notFound)),
  },
  {
    name: "guard in expressMiddleware (under /api, mountPath 'strip')" + tag,
    base: '/api',
    start: () => listen(express().use('/api', fetchBridge(honoApp('', guardRouter('/admin')), o)).use(notFound)),
  },
  {
    name: "guard in expressMiddleware (under /api, mountPath 'keep')" + tag,
    base: '/api',
    start: () =>
      listen(express().use('/api', fetchBridge(honoApp('/api', guardRouter('/api/admin')), { ...o, mountPath: 'keep' })).use(notFound)),
  },
  {
    name: "guard in expressMiddleware (@hono/node-server's listener)" + tag,
    base: '',
    start: () => listen(getRequestListener(honoApp('', guardRouter('/admin')).fetch)),
  },
]

const MODES: Array<Mode & { runs: number }> = [
  ...modes({}),
  // The Express way of matching: other case and a trailing slash reach the Hono routes too, and the
  // guard must still run for every one of them (@hono/node-server has no such option).
  ...modes({ expressRouting: true }, ', expressRouting').filter((m) => !m.name.includes('@hono/node-server')),
  {
    name: 'guard in Express before the bridge, case sensitive routing, expressRouting',
    base: '',
    start: () => {
      const app = express().set('case sensitive routing', true).set('strict routing', true)
      return listen(app.use('/admin', guard).use(fetchBridge(honoApp(''), { expressRouting: true })).use(notFound))
    },
  },
  {
    // The chain routes on the path Hono routes on (respelled): a case-sensitive guard still runs.
    name: 'guard in expressMiddleware, a case-sensitive strict Router, expressRouting',
    base: '',
    start: () => {
      const inside = express.Router({ caseSensitive: true, strict: true }).use('/admin', guard)
      return listen(express().use(fetchBridge(honoApp('', inside), { expressRouting: true })).use(notFound))
    },
  },
].map((m) => ({ ...m, runs: m.name.includes('expressRouting') ? RUNS / 2 : RUNS }))

// A character as a client may write it: itself, escaped (either hex case), or in the other case.
const spelling = (ch: string): fc.Arbitrary<string> => {
  const hex = ch.charCodeAt(0).toString(16).padStart(2, '0')
  const forms = [ch, `%${hex.toUpperCase()}`, `%${hex.toLowerCase()}`]
  if (ch.toUpperCase() !== ch) forms.push(ch.toUpperCase())
  return fc.constantFrom(...forms)
}
const spelled = (word: string) => fc.tuple(...[...word].map(spelling)).map((parts) => parts.join(''))
const segment = (word: string) => mostly(word, spelled(word))
// Mostly the plain form of each part, so that a good share of the targets reach the Hono routes.
const mostly = <T>(usual: T, others: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: others })
const separator = mostly('/', fc.constantFrom('//', '/./', '/%2e/', '/x/../', '/x/%2E%2e/', ';x/', '/;/', '/%2F'))
const tail = mostly('', fc.constantFrom('/', '?q=1', '/?x', ';v=1', '%2F', '.', '/.', '//'))
const rest = fc.oneof(
  fc.constant(''),
  segment('dashboard'),
  fc.tuple(segment('users'), separator, fc.constantFrom('1', 'a%20b', '%E2%9C%93', 'x%2Fy')).map((p) => p.join('')),
  fc.tuple(segment('files'), separator, fc.constantFrom('a', 'a/b', '%61', '..')).map((p) => p.join('')),
  fc.constantFrom('public', 'admin'),
)

function target(base: string): fc.Arbitrary<string> {
  const mount = base === '' ? fc.constant('') : fc.tuple(fc.constant('/'), segment(base.slice(1))).map((p) => p.join(''))
  return fc
    .tuple(mostly('', fc.constantFrom('/', '/x/..', '/%2e', '/.')), mount, separator, segment('admin'), separator, rest, tail)
    .map(([lead, m, s1, admin, s2, r, t]) => `${lead}${m}${s1}${admin}${r === '' ? '' : s2 + r}${t}`)
    .filter((t) => t.startsWith('/') && !t.startsWith('//'))
}

/** A GET of `path` exactly as written (a URL string would have its dot segments resolved by the client). */
async function get(port: number, agent: http.Agent, path: string): Promise<{ status: number; body: string }> {
  const { res, body } = await request(`http://127.0.0.1:${port}`, { path, agent })
  return { status: res.statusCode!, body: body.toString() }
}

describe.each(MODES)('$name', (mode) => {
  let server: Running
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  beforeAll(async () => {
    server = await mode.start()
  })
  afterAll(async () => {
    agent.destroy()
    await server.close()
  })

  it(`a Hono route under the guarded prefix answers only after the guard ran (${mode.runs} targets)`, async () => {
    let reached = 0
    await fc.assert(
      fc.asyncProperty(target(mode.base), async (path) => {
        const { body } = await get(server.port, agent, path)
        if (body.startsWith('admin ')) reached++
        expect(body === 'admin false' ? `${path} reached a guarded Hono route without the guard` : 'ok').toBe('ok')
      }),
      { numRuns: mode.runs, seed: SEED },
    )
    // The generator is worth something only if many targets do reach the guarded routes.
    expect(reached).toBeGreaterThan(mode.runs / 10)
  }, 120_000)
})

describe('escapes real clients send still reach the Hono route, decoded as Hono decodes them', () => {
  const hono = new Hono()
  hono.get('/files/:name', (c) => c.text(`file ${c.req.param('name')}`))
  hono.get('/users/:id/profile', (c) => c.text(`user ${c.req.param('id')}`))
  const hosts: [string, () => Promise<Running>][] = [
    ['middleware mode', () => listen(express().use(fetchBridge(hono)).use(notFound))],
    ['front door', () => listen(fetchBridge(hono, { fallback: express().use(notFound) }))],
  ]
  it.each(hosts)('%s', async (_name, start) => {
    const server = await start()
    const agent = new http.Agent({ keepAlive: true })
    try {
      const cases: [string, string][] = [
        ['/files/a%20b', 'file a b'],
        ['/files/a%2Fb', 'file a/b'],
        ['/files/%22q%22%5B1%5D', 'file "q"[1]'],
        ['/users/%E2%9C%93/profile', 'user ✓'],
        ['/users/caf%C3%A9/profile', 'user café'],
        // An escaped unreserved character is another path to Express: it gets what Express alone answers.
        ['/users/%7Ejohn/profile', 'express 404'],
        ['/files/%61', 'express 404'],
      ]
      const got = await Promise.all(cases.map(async ([path]) => [path, (await get(server.port, agent, path)).body]))
      expect(got).toEqual(cases)
    } finally {
      agent.destroy()
      await server.close()
    }
  })
})
