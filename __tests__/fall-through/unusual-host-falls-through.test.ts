import http from 'node:http'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { parseHead, raw, listen, type Running } from '../helpers/transport.js'

// Scanners send Hosts no URL can hold all day. With the bridge in front, a legacy route must answer
// them exactly as Express alone does, quietly; 400 only where nobody else could answer.

const hono = new Hono()
hono.get('/hono', (c) => c.text('hono'))

/** [title, extra header lines (latin1 bytes, so raw UTF-8 stays raw)] */
const unusual: Array<[string, string]> = [
  ['Host: a b', 'Host: a b\r\n'],
  ['Host: host:99999', 'Host: host:99999\r\n'],
  ['Host: bücher.example (raw UTF-8)', `Host: ${Buffer.from('bücher.example').toString('latin1')}\r\n`],
  ['Host: example.com:80, evil', 'Host: example.com:80, evil\r\n'],
  ['X-Forwarded-Proto: wss under trust proxy', 'Host: app.example\r\nX-Forwarded-Proto: wss\r\n'],
]

async function send(port: number, path: string, headers: string): Promise<{ status: number; body: string }> {
  const { data } = await raw(port, Buffer.from(`GET ${path} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`, 'latin1'))
  const head = parseHead(data)
  return { status: head.status, body: head.rest.toString('latin1') }
}

let logged: unknown[][] = []
const originalError = console.error
beforeEach(() => {
  logged = []
  console.error = (...args: unknown[]) => void logged.push(args)
})
afterEach(() => {
  console.error = originalError
})

describe.each(expressVersions)('%s', (_name, express) => {
  let errors = 0
  function legacy() {
    const app = express()
    app.set('trust proxy', true)
    // Express's default env under jest is 'test', which silences its final handler: log as in production.
    app.set('env', 'production')
    app.get('/legacy', (req, res) => res.send(`legacy ${req.protocol}`))
    app.use((err: Error, _req: any, res: any, _next: any) => {
      errors++
      res.status(500).send(`error handler: ${err.name}`)
    })
    return app
  }
  const servers: Record<string, Running> = {}
  beforeAll(async () => {
    const withBridge = express()
    withBridge.set('trust proxy', true)
    withBridge.use(fetchBridge(hono))
    withBridge.use(legacy())
    servers.middleware = await listen(withBridge as unknown as http.RequestListener)
    servers.frontDoor = await listen(fetchBridge(hono, { fallback: legacy() }))
    servers.alone = await listen(legacy() as unknown as http.RequestListener)
  })
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close()
  })
  beforeEach(() => {
    errors = 0
  })

  it.each(unusual)('%s: a legacy route answers exactly as Express alone, nothing logged (middleware and front door)', async (_t, headers) => {
    const alone = await send(servers.alone.port, '/legacy', headers)
    expect(alone.status).toBe(200)
    expect(await send(servers.middleware.port, '/legacy', headers)).toEqual(alone)
    expect(await send(servers.frontDoor.port, '/legacy', headers)).toEqual(alone)
    expect(errors).toBe(0)
    expect(logged).toEqual([])
  })
})

describe('where nobody else can answer', () => {
  it.each(unusual.slice(0, 4))('%s: plain node:http answers 400, nothing logged', async (_t, headers) => {
    const s = await listen(fetchBridge(hono))
    try {
      expect(await send(s.port, '/hono', headers)).toEqual({ status: 400, body: 'Bad Request' })
      expect(logged).toEqual([])
    } finally {
      await s.close()
    }
  })

  it.each(unusual)('%s: Express with fallthrough: false answers 400, no error handler, nothing logged', async (_t, headers) => {
    const express = expressVersions[0][1]
    const app = express()
    app.set('trust proxy', true)
    app.set('env', 'production')
    let errors = 0
    app.use(fetchBridge(hono, { fallthrough: false }))
    app.use((_err: unknown, _req: any, res: any, _next: any) => {
      errors++
      res.status(500).send('error handler')
    })
    const s = await listen(app as unknown as http.RequestListener)
    try {
      expect(await send(s.port, '/hono', headers)).toEqual({ status: 400, body: 'Bad Request' })
      expect(errors).toBe(0)
      expect(logged).toEqual([])
    } finally {
      await s.close()
    }
  })
})
