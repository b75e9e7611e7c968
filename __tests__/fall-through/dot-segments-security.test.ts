import http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, type FetchBridgeOptions } from '../../src/index.js'
import { parseHead, raw, listen, type Running } from '../helpers/transport.js'

// Express routes on the raw path; the URL parser resolves `..`, `.`, `%2e` forms and `\`. The app
// must never get a path Express did not route to it: not outside its mount, not past a guard.

/** Every answer of the Hono app says which route served it. */
const hono = new Hono()
for (const path of ['/admin/panel', '/secret', '/keep/secret', '/api/secret', '/x']) {
  hono.get(path, (c) => c.text(`HONO ${path}`))
}

type Mount = 'root' | 'strip' | 'keep'
const prefixes: Record<Mount, string> = { root: '', strip: '/api', keep: '/keep' }

/** The legacy app, with or without the bridge at the given mount (`front door` wraps it instead). */
function expressApp(mount: Mount, bridge: boolean): express.Express {
  const app = express()
  app.use('/admin', (req, res, next) => (req.headers['x-admin'] === 'yes' ? next() : res.status(403).send('forbidden')))
  if (bridge) {
    const options: FetchBridgeOptions = mount === 'keep' ? { mountPath: 'keep' } : {}
    if (mount === 'root') app.use(fetchBridge(hono))
    else app.use(prefixes[mount], fetchBridge(hono, options))
  }
  app.use((req, res) => res.status(404).send(`express 404 ${req.originalUrl}`))
  return app
}

/** Targets whose path the URL parser would change, relative to the mount prefix P. */
const normalised = (P: string): Array<[string, string]> => [
  ['..', `${P}/x/../admin/panel`],
  ['.. past the mount', `${P}/../secret`],
  ['.. to the mount itself', `${P}/x/..`],
  ['.', `${P}/./admin/panel`],
  ['. inside the guard', `/admin/./panel`],
  ['%2e%2e', `${P}/x/%2e%2e/admin/panel`],
  ['%2E%2e', `${P}/%2E%2e/secret`],
  ['.%2e', `${P}/x/.%2e/admin/panel`],
  ['%2e', `${P}/%2e/admin/panel`],
  ['\\', `${P}/x\\..\\admin\\panel`],
  ['\\ past the mount', `${P}/..\\secret`],
  ['absolute-form with ..', `http://evil.example${P}/x/../admin/panel`],
  ['absolute-form with \\', `http://evil.example${P}/x\\..\\secret`],
]

/** Targets the URL parser keeps as sent: the app gets them exactly as Express routed them. */
const keptAsSent = (P: string): Array<[string, string]> => [
  ['%2f', `${P}/admin%2fpanel`],
  ['%2F past the mount', `${P}/..%2Fsecret`],
  ['%5c', `${P}/admin%5cpanel`],
  ['%5C past the mount', `${P}/..%5Csecret`],
  ['//host/x', `${P}//evil.example/admin/panel`],
]

async function get(port: number, target: string, admin = false): Promise<{ status: number; body: string }> {
  const extra = admin ? 'X-Admin: yes\r\n' : ''
  const { data } = await raw(port, `GET ${target} HTTP/1.1\r\nHost: app.example\r\n${extra}Connection: close\r\n\r\n`)
  const head = parseHead(data)
  return { status: head.status, body: head.rest.toString('latin1') }
}

const scenarios: Array<[name: string, mount: Mount, frontDoor: boolean]> = [
  ['middleware at the root', 'root', false],
  ["middleware under app.use('/api') (strip)", 'strip', false],
  ["middleware under app.use('/keep') with mountPath: 'keep'", 'keep', false],
  ['front door', 'root', true],
]

describe.each(scenarios)('%s', (_name, mount, frontDoor) => {
  const P = prefixes[mount]
  let bridged: Running
  let alone: Running
  beforeAll(async () => {
    bridged = await listen(
      (frontDoor ? fetchBridge(hono, { fallback: expressApp(mount, false) }) : expressApp(mount, true)) as http.RequestListener,
    )
    alone = await listen(expressApp(mount, false) as unknown as http.RequestListener)
  })
  afterAll(async () => {
    await bridged.close()
    await alone.close()
  })

  it.each([...normalised(P), ...keptAsSent(P)])('%s (%s): answered exactly as by Express alone, never by the app', async (_v, target) => {
    for (const admin of [false, true]) {
      const viaBridge = await get(bridged.port, target, admin)
      expect(viaBridge.body).not.toMatch(/^HONO/)
      expect(viaBridge).toEqual(await get(alone.port, target, admin))
    }
  })

  // In front-door mode Hono routes are served before any Express middleware (no guard to pass).
  const middleware = frontDoor ? it.skip : it
  middleware('control: the guard still protects the Hono route, which serves admins', async () => {
    expect(await get(bridged.port, '/admin/panel')).toEqual({ status: 403, body: 'forbidden' })
    if (mount === 'root') expect(await get(bridged.port, '/admin/panel', true)).toEqual({ status: 200, body: 'HONO /admin/panel' })
    const secret = mount === 'keep' ? 'HONO /keep/secret' : 'HONO /secret'
    expect(await get(bridged.port, `${P}/secret`)).toEqual({ status: 200, body: secret })
  })

  middleware('control: an absolute-form target is routed on its path, as Express does, guard included', async () => {
    expect(await get(bridged.port, 'http://evil.example/admin/panel')).toEqual({ status: 403, body: 'forbidden' })
    expect(await get(bridged.port, `http://evil.example${P}/secret`)).toEqual(await get(bridged.port, `${P}/secret`))
    if (mount === 'root') {
      expect(await get(bridged.port, 'http://evil.example/admin/panel', true)).toEqual({ status: 200, body: 'HONO /admin/panel' })
    }
  })
})

describe('plain node:http (nobody behind the bridge)', () => {
  let server: Running
  beforeAll(async () => {
    server = await listen(fetchBridge(hono))
  })
  afterAll(() => server.close())

  it.each(normalised(''))('%s (%s): 400', async (_v, target) => {
    expect(await get(server.port, target)).toEqual({ status: 400, body: 'Bad Request' })
  })

  it.each(keptAsSent(''))('%s (%s): the app gets the path as sent (no route: 404)', async (_v, target) => {
    expect(await get(server.port, target)).toEqual({ status: 404, body: `Cannot GET ${target}` })
  })

  it('an absolute-form target is served on its path', async () => {
    expect(await get(server.port, 'http://evil.example/secret')).toEqual({ status: 200, body: 'HONO /secret' })
  })

  it('with fallthrough: false in Express: 400, and the error handler is not called', async () => {
    let errors = 0
    const app = express()
    app.use(fetchBridge(hono, { fallthrough: false }))
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors++
      res.status(500).send('error handler')
    })
    const s = await listen(app as unknown as http.RequestListener)
    try {
      expect(await get(s.port, '/x/../secret')).toEqual({ status: 400, body: 'Bad Request' })
      expect(errors).toBe(0)
    } finally {
      await s.close()
    }
  })
})
