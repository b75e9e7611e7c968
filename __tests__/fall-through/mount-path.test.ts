import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { expectTexts } from '../helpers/apps.js'

describe.each(expressVersions)('mount paths on %s', (_name, express) => {
  function echo() {
    const hono = new Hono()
    hono.get('*', (c) => c.json({ path: c.req.path, url: c.req.url, query: c.req.queries() ?? {} }))
    return hono
  }

  it("strips the mount path by default, like an Express sub-app", async () => {
    const hono = new Hono()
    hono.get('/users', (c) => c.text(`users ${c.req.url}`))
    const app = express()
    app.use('/api', fetchBridge(hono))
    const res = await request(app).get('/api/users?x=1').expect(200)
    expect(res.text).toMatch(/^users http:\/\/127\.0\.0\.1:\d+\/users\?x=1$/)
  })

  it("keeps the mount path with mountPath: 'keep'", async () => {
    const hono = new Hono()
    hono.get('/api/users', (c) => c.text(`users ${c.req.url}`))
    const app = express()
    app.use('/api', fetchBridge(hono, { mountPath: 'keep' }))
    const res = await request(app).get('/api/users?x=1').expect(200)
    expect(res.text).toMatch(/\/api\/users\?x=1$/)
  })

  it('keeps the query byte for byte (never rebuilt from req.query)', async () => {
    const app = express()
    app.use('/api', fetchBridge(echo(), { mountPath: 'keep' }))
    app.use('/s', fetchBridge(echo()))
    const raw = '?b=2&a=1&a=%2F&c[d]=e&empty=&plus=a+b'
    const kept = await request(app).get(`/api/list${raw}`).expect(200)
    expect(kept.body.url).toMatch(new RegExp(`/api/list${raw.replace(/[?[\]+]/g, '\\$&')}$`))
    expect(kept.body.query).toEqual({ b: ['2'], a: ['1', '/'], 'c[d]': ['e'], empty: [''], plus: ['a b'] })
    const stripped = await request(app).get(`/s/list${raw}`).expect(200)
    expect(stripped.body.path).toBe('/list')
    expect(stripped.body.url.endsWith(`/list${raw}`)).toBe(true)
  })

  it('gives the mount point itself as "/" when stripped and without an added slash when kept', async () => {
    const strip = new Hono()
    strip.get('/', (c) => c.text(`root ${new URL(c.req.url).search}`))
    const keep = new Hono()
    keep.get('/k', (c) => c.text(`k ${new URL(c.req.url).pathname}${new URL(c.req.url).search}`))
    keep.get('/k/', (c) => c.text('k with slash'))
    const app = express()
    app.use('/s', fetchBridge(strip))
    app.use('/k', fetchBridge(keep, { mountPath: 'keep' }))
    await expectTexts(app, { '/s?x=1': 'root ?x=1', '/k?x=1': 'k /k?x=1', '/k': 'k /k', '/k/': 'k with slash' })
  })

  it('uses the full path under nested routers in keep mode', async () => {
    const hono = new Hono()
    hono.get('/v1/api/items', (c) => c.text('items'))
    const router = express.Router()
    router.use('/api', fetchBridge(hono, { mountPath: 'keep' }))
    const app = express()
    app.use('/v1', router)
    await request(app).get('/v1/api/items').expect(200, 'items')
  })

  it('falls through to Express routes under the same mount point', async () => {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono'))
    const app = express()
    app.use('/api', fetchBridge(hono))
    app.get('/api/old', (_req, res) => {
      res.send('express old')
    })
    await request(app).get('/api/moved').expect(200, 'hono')
    await request(app).get('/api/old').expect(200, 'express old')
  })
})
