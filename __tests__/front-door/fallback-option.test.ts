import type { ServerResponse } from 'node:http'
import request from 'supertest'
import connect from 'connect'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

describe('the fallback option', () => {
  it('must be a function', () => {
    expect(() => fetchBridge(new Hono(), { fallback: {} as never })).toThrow(/fallback must be a \(req, res\) => void listener/)
  })

  it('cannot be combined with fallthrough: false (the fallback would never run)', () => {
    expect(() => fetchBridge(new Hono(), { fallback: () => {}, fallthrough: false })).toThrow(/fallback needs fallthrough/)
  })

  it('takes a Connect app', async () => {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono moved'))
    const app = connect()
    app.use('/legacy', (_req: unknown, res: ServerResponse) => res.end('connect legacy'))
    const bridge = fetchBridge(hono, { fallback: app })
    await request(bridge).get('/moved').expect(200, 'hono moved')
    await request(bridge).get('/legacy').expect(200, 'connect legacy')
    await request(bridge).get('/nowhere').expect(404)
  })

  it('receives what a plain fetch function declines (returns undefined)', async () => {
    const bridge = fetchBridge((req: Request) => (new URL(req.url).pathname === '/mine' ? new Response('mine') : undefined), {
      fallback: (_req, res: ServerResponse) => res.end('fallback'),
    })
    await request(bridge).get('/mine').expect(200, 'mine')
    await request(bridge).get('/other').expect(200, 'fallback')
  })
})

describe.each(expressVersions)('a bridge with a fallback mounted as middleware on %s', (_name, express) => {
  function host() {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono moved'))
    hono.get('/boom', () => {
      throw new Error('hono boom')
    })
    hono.onError((err) => {
      throw err
    })
    const router = express.Router()
    router.get('/legacy', (_req, res) => {
      res.send('router legacy')
    })
    const app = express()
    app.use(fetchBridge(hono, { fallback: router }))
    app.get('/outer', (_req, res) => {
      res.send('outer route')
    })
    app.use((err: Error, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
      res.status(599).send(`outer error handler: ${err.message}`)
    })
    return app
  }

  it('hands unmatched requests to fallback(req, res, next), like a mounted Router', async () => {
    const app = host()
    await request(app).get('/moved').expect(200, 'hono moved')
    await request(app).get('/legacy').expect(200, 'router legacy')
    // The router has no such route either: its next() continues the outer chain.
    await request(app).get('/outer').expect(200, 'outer route')
  })

  it('passes errors to next(err)', async () => {
    await request(host()).get('/boom').expect(599, 'outer error handler: hono boom')
  })
})
