import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../src/index.js'
import { expressVersions } from './helpers/express-versions.js'

function urlApp() {
  const hono = new Hono()
  hono.get('/where', (c) => c.text(c.req.url))
  return hono
}

describe.each(expressVersions)('request origin on %s', (_name, express) => {
  it('uses a fixed origin for every request, whatever Host or X-Forwarded-* say', async () => {
    const app = express()
    app.set('trust proxy', true)
    app.use(fetchBridge(urlApp(), { origin: 'https://api.example.com' }))
    await request(app)
      .get('/where?q=1')
      .set('Host', 'evil.example')
      .set('X-Forwarded-Host', 'evil2.example')
      .set('X-Forwarded-Proto', 'http')
      .expect(200, 'https://api.example.com/where?q=1')
  })

  it('keeps only the origin part of the option', async () => {
    const app = express()
    app.use(fetchBridge(urlApp(), { origin: 'https://api.example.com:8443/ignored/path?x' }))
    await request(app).get('/where').expect(200, 'https://api.example.com:8443/where')
  })

  it('uses the Host header and ignores X-Forwarded-* without trust proxy', async () => {
    const app = express()
    app.use(fetchBridge(urlApp()))
    await request(app)
      .get('/where')
      .set('Host', 'shop.example:8080')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Proto', 'https')
      .expect(200, 'http://shop.example:8080/where')
  })

  it('follows X-Forwarded-Proto and X-Forwarded-Host (first value) with trust proxy on', async () => {
    const app = express()
    app.set('trust proxy', 'loopback')
    app.use(fetchBridge(urlApp()))
    await request(app)
      .get('/where')
      .set('Host', 'internal:3000')
      .set('X-Forwarded-Host', 'public.example, proxy.internal')
      .set('X-Forwarded-Proto', 'https, http')
      .expect(200, 'https://public.example/where')
  })

  it('does not trust X-Forwarded-* from an address outside the trust proxy setting', async () => {
    const app = express()
    app.set('trust proxy', '10.0.0.1')
    app.use(fetchBridge(urlApp()))
    await request(app)
      .get('/where')
      .set('Host', 'internal:3000')
      .set('X-Forwarded-Host', 'public.example')
      .set('X-Forwarded-Proto', 'https')
      .expect(200, 'http://internal:3000/where')
  })

  it('answers 400 for a Host header that cannot form a URL', async () => {
    const app = express()
    app.use(fetchBridge(urlApp()))
    app.use((err: { status?: number }, _req: unknown, res: import('express').Response, _next: unknown) => {
      res.status(err.status ?? 500).send('bad host')
    })
    await request(app).get('/where').set('Host', 'a b/c').expect(400, 'bad host')
  })
})

describe('origin option validation', () => {
  it.each(['not a url', 'ftp://files.example', 'javascript:alert(1)'])('rejects %s when the bridge is created', (origin) => {
    expect(() => fetchBridge(urlApp(), { origin })).toThrow(TypeError)
  })
})
