import express from 'express'
import { Hono } from 'hono'
import supertest from 'supertest'
import { fetchBridge, shadowTrial, type FetchBridgeOptions } from '../../src/index.js'
import { recordedTrial } from './trial.js'

// The trial's bridges are bridges over the Hono app itself: the options that describe the app
// (expressRouting, honoMiddleware) hold for the canary too, and a request is under trial exactly
// when the bridge would send it to the trial's route. (Every combination: the property test beside.)

function products(): Hono {
  const hono = new Hono()
  hono.get('/products/:id', (c) => c.json({ id: c.req.param('id'), by: 'hono' }))
  return hono
}

describe('a shadow trial with the bridge options that describe the Hono app', () => {
  it.each<[string, FetchBridgeOptions]>([
    ['expressRouting: true', { expressRouting: true }],
    ['expressRouting: { caseSensitive: true }', { expressRouting: { caseSensitive: true } }],
    ['expressRouting, front door', { expressRouting: true, fallback: express() }],
    ["honoMiddleware: 'routes'", { honoMiddleware: 'routes' }],
    ["honoMiddleware: 'routes', front door", { honoMiddleware: 'routes', fallback: express() }],
  ])('%s: the bridge is made', (_name, options) => {
    const shadow = shadowTrial({ routes: [{ route: '/products/:id', canary: 10 }] })
    expect(() => fetchBridge(products(), { ...options, shadow })).not.toThrow()
  })

  it('expressRouting: /Products/1/ is under trial; Express answers and the twin gets the path as the route spells it', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/products/:id', ignore: ['$.by'] }], noise: false })
    const app = express()
    app.use(fetchBridge(products(), { expressRouting: true, shadow: trial }))
    app.get('/products/:id', (req, res) => void res.json({ id: req.params.id, by: 'express' }))
    await supertest(app).get('/Products/1/').expect(200, { id: '1', by: 'express' })
    const [result] = await until(1)
    expect([result.route, result.url, result.outcome]).toEqual(['/products/:id', '/products/1', 'match'])
  })

  it('expressRouting: the canary share answers /Products/1 by Hono', async () => {
    const shadow = shadowTrial({ routes: [{ route: '/products/:id', canary: 100 }] })
    const app = express()
    app.use(fetchBridge(products(), { expressRouting: true, shadow }))
    app.get('/products/:id', (req, res) => void res.json({ id: req.params.id, by: 'express' }))
    await supertest(app).get('/Products/1').expect(200, { id: '1', by: 'hono' })
    expect(shadow.stats()[0]).toMatchObject({ route: '/products/:id', canary: { hono: 1, express: 0, fallbacks: 0 } })
  })

  it("expressRouting inside a Router: the canary follows the Router's settings, not the app's", async () => {
    const shadow = shadowTrial({ routes: [{ route: '/products/:id', canary: 100 }] })
    const app = express()
    app.set('case sensitive routing', true)
    const router = express.Router()
    router.use(fetchBridge(products(), { expressRouting: true, shadow }))
    router.get('/products/:id', (req, res) => void res.json({ id: req.params.id, by: 'express' }))
    app.use(router)
    await supertest(app).get('/Products/1').expect(200, { id: '1', by: 'hono' })
    expect(shadow.stats()[0]).toMatchObject({ route: '/products/:id', canary: { hono: 1, express: 0, fallbacks: 0 } })
  })

  it("front door, honoMiddleware: 'routes': trial routes, Hono routes and Express routes each answered by their side", async () => {
    const hono = products()
    hono.get('/new', (c) => c.text('hono new'))
    const fallback = express()
    fallback.get('/products/:id', (req, res) => void res.json({ id: req.params.id, by: 'express' }))
    fallback.get('/legacy', (_req, res) => void res.send('legacy'))
    const shadow = shadowTrial({ routes: [{ route: '/products/:id' }] })
    const door = fetchBridge(hono, { fallback, honoMiddleware: 'routes', shadow })
    await supertest(door).get('/products/1').expect(200, { id: '1', by: 'express' })
    await supertest(door).get('/new').expect(200, 'hono new')
    await supertest(door).get('/legacy').expect(200, 'legacy')
  })
})
