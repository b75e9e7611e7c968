import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'
import { fetchBridge, type FetchBridgeOptions } from '../../src/index.js'
import { listen, request, sleep, type Running } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

// A trial changes who answers the requests of its routes, and nothing else, whatever the bridge's
// options: for every valid combination of expressRouting (and Express's own routing settings),
// honoMiddleware, fallthrough, mount (root, strip, keep, front door), onDispatch and the canary share,
// the same server is run three ways — Express alone, with the bridge, with the bridge and the trial —
// and each request is answered:
//   - when the bridge alone sends it to a trial route (told by the route's x-route header): as by
//     Express alone with canary 0 (and its twin compared: a match, so it saw the path the route
//     spells), as by the bridge alone with canary 100 (Express alone for a 5xx: the canary's fallback);
//   - otherwise as by the bridge alone, and without a shadow run.

interface Case {
  expressRouting: FetchBridgeOptions['expressRouting']
  caseSensitive: boolean
  strict: boolean
  honoMiddleware: FetchBridgeOptions['honoMiddleware']
  fallthrough: boolean | undefined
  mode: 'root' | 'strip' | 'keep' | 'front-door'
  onDispatch: boolean
  canary: 0 | 100
}

const PATHS: Array<[method: string, path: string]> = [
  ['GET', '/p/1'],
  ['GET', '/P/1'],
  ['GET', '/p/1/'],
  ['HEAD', '/p/1'],
  ['POST', '/p/1'],
  ['GET', '/q/1'],
  ['GET', '/boom/1'],
  ['GET', '/legacy'],
  ['GET', '/nothing'],
]

function honoApp(prefix: string): Hono {
  const hono = new Hono()
  hono.use('*', async (c, next) => {
    await next()
    c.header('x-hono-mw', '1')
  })
  hono.get(`${prefix}/p/:id`, (c) => c.json({ by: 'hono', id: c.req.param('id') }, 200, { 'x-route': c.req.routePath }))
  hono.get(`${prefix}/q/:id`, (c) => c.text('hono q', 200, { 'x-route': c.req.routePath }))
  hono.get(`${prefix}/boom/:id`, (c) => c.text('hono boom', 503, { 'x-route': c.req.routePath }))
  return hono
}

function expressApp(c: Case, mount: string, bridge?: express.RequestHandler): express.Express {
  const app = express()
  app.set('case sensitive routing', c.caseSensitive)
  app.set('strict routing', c.strict)
  if (bridge !== undefined) app.use(mount || '/', bridge)
  app.get(`${mount}/p/:id`, (req, res) => void res.json({ by: 'express', id: req.params.id }))
  app.post(`${mount}/p/:id`, (_req, res) => void res.send('express post'))
  app.get(`${mount}/boom/:id`, (_req, res) => void res.send('express boom'))
  app.get(`${mount}/legacy`, (_req, res) => void res.send('legacy'))
  return app
}

const arbitraryCase: fc.Arbitrary<Case> = fc
  .record({
    expressRouting: fc.constantFrom<Case['expressRouting']>(undefined, true, { caseSensitive: true }, { strict: false }),
    caseSensitive: fc.boolean(),
    strict: fc.boolean(),
    honoMiddleware: fc.constantFrom<Case['honoMiddleware']>(undefined, 'routes', 'all'),
    fallthrough: fc.constantFrom(undefined, true, false),
    mode: fc.constantFrom<Case['mode']>('root', 'strip', 'keep', 'front-door'),
    onDispatch: fc.boolean(),
    canary: fc.constantFrom<0 | 100>(0, 100),
  })
  // Refused with or without a trial: a front door needs fallthrough, and so does honoMiddleware: 'routes'.
  .filter((c) => c.fallthrough !== false || (c.mode !== 'front-door' && c.honoMiddleware !== 'routes'))

interface Answer {
  status: number
  body: string
  route: string | undefined
}

async function answer(server: Running, method: string, path: string): Promise<Answer> {
  const { res, body } = await request(server.url + path, { method })
  const route = res.headers['x-route']
  return { status: res.statusCode!, body: body.toString(), route: typeof route === 'string' ? route : undefined }
}

describe('a trial under every combination of the bridge options', () => {
  it('changes who answers its routes, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryCase, async (c) => {
        const mount = c.mode === 'strip' || c.mode === 'keep' ? '/api' : ''
        const prefix = c.mode === 'keep' ? '/api' : ''
        const trialRoutes = [`${prefix}/p/:id`, `${prefix}/boom/:id`]
        const { trial, results, until } = recordedTrial({
          routes: trialRoutes.map((route) => ({ route, canary: c.canary, ignore: ['$.by', 'header:x-route', 'header:x-hono-mw'] })),
          noise: false,
        })
        const options = (shadow: boolean): FetchBridgeOptions => ({
          ...(c.expressRouting !== undefined && { expressRouting: c.expressRouting }),
          ...(c.honoMiddleware !== undefined && { honoMiddleware: c.honoMiddleware }),
          ...(c.fallthrough !== undefined && { fallthrough: c.fallthrough }),
          ...(c.mode === 'keep' && { mountPath: 'keep' }),
          ...(c.onDispatch && { onDispatch: () => {} }),
          ...(shadow && { shadow: trial }),
        })
        const hono = honoApp(prefix)
        const alone = expressApp(c, mount)
        const serve = (shadow: boolean) =>
          c.mode === 'front-door'
            ? fetchBridge(hono, { ...options(shadow), fallback: alone })
            : expressApp(c, mount, fetchBridge(hono, options(shadow)) as express.RequestHandler)
        // Built before any server listens: a bridge that throws at start-up leaves nothing open.
        const handlers = [alone, serve(false), serve(true)]
        const servers = await Promise.all(handlers.map((handler) => listen(handler)))
        try {
          let shadowed = 0
          let canaried = 0
          for (const [method, path] of PATHS) {
            const [express, bridge, trialled] = await Promise.all(servers.map((s) => answer(s, method, mount + path)))
            const underTrial = bridge.route !== undefined && trialRoutes.includes(bridge.route)
            const expected = !underTrial ? bridge : c.canary === 0 || bridge.status >= 500 ? express : bridge
            const seen = { method, path, status: trialled.status, body: trialled.body }
            expect(seen).toEqual({ method, path, status: expected.status, body: expected.body })
            if (underTrial && c.canary === 0) shadowed++
            if (underTrial && c.canary === 100) canaried++
          }
          await until(shadowed)
          await sleep(20)
          expect(results).toHaveLength(shadowed)
          // The twin got the path as the route spells it: it answers as Express did (where an Express route answered:
          // an explicit expressRouting looser than Express's own settings lets Hono take what Express would 404).
          for (const r of results.filter((r) => r.route === `${prefix}/p/:id` && r.express.status === 200))
            expect([r.url, r.outcome, r.diffs.map(String)]).toEqual([r.url, 'match', []])
          const canary = trial.stats().reduce((n, row) => n + row.canary.hono, 0)
          expect(canary).toBe(canaried)
        } finally {
          await Promise.all(servers.map((s) => s.close()))
        }
      }),
      { numRuns: 60 },
    )
  }, 120000)
})
