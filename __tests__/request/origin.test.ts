import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

function urlApp() {
  const hono = new Hono()
  hono.get('/where', (c) => c.text(c.req.url))
  return hono
}

describe.each(expressVersions)('request origin on %s', (_name, express) => {
  it.each([
    {
      title: 'uses a fixed origin for every request, whatever Host or X-Forwarded-* say',
      trustProxy: true,
      origin: 'https://api.example.com',
      path: '/where?q=1',
      headers: { Host: 'evil.example', 'X-Forwarded-Host': 'evil2.example', 'X-Forwarded-Proto': 'http' },
      url: 'https://api.example.com/where?q=1',
    },
    {
      // An origin with a path or query is refused (bridge/mistakes-caught-at-start-up.test.ts).
      title: 'takes the option with a trailing slash as its origin',
      origin: 'https://api.example.com:8443/',
      url: 'https://api.example.com:8443/where',
    },
    {
      title: 'uses the Host header and ignores X-Forwarded-* without trust proxy',
      headers: { Host: 'shop.example:8080', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
      url: 'http://shop.example:8080/where',
    },
    {
      title: 'follows X-Forwarded-Proto and X-Forwarded-Host (first value) with trust proxy on',
      trustProxy: 'loopback',
      headers: { Host: 'internal:3000', 'X-Forwarded-Host': 'public.example, proxy.internal', 'X-Forwarded-Proto': 'https, http' },
      url: 'https://public.example/where',
    },
    {
      title: 'does not trust X-Forwarded-* from an address outside the trust proxy setting',
      trustProxy: '10.0.0.1',
      headers: { Host: 'internal:3000', 'X-Forwarded-Host': 'public.example', 'X-Forwarded-Proto': 'https' },
      url: 'http://internal:3000/where',
    },
  ] as { title: string; trustProxy?: boolean | string; origin?: string; path?: string; headers?: Record<string, string>; url: string }[])(
    '$title',
    async ({ trustProxy, origin, path = '/where', headers = {}, url }) => {
      const app = express()
      if (trustProxy !== undefined) app.set('trust proxy', trustProxy)
      app.use(fetchBridge(urlApp(), origin === undefined ? {} : { origin }))
      await request(app).get(path).set(headers).expect(200, url)
    },
  )

  it.each([
    [{}, 200, 'express'],
    [{ fallthrough: false }, 400, 'Bad Request'],
  ] as const)('a Host header that cannot form a URL, with %j: %i', async (options, status, body) => {
    const app = express()
    let errors = 0
    app.use(fetchBridge(urlApp(), options))
    app.get('/where', (_req, res) => res.send('express'))
    app.use((err: { status?: number }, _req: unknown, res: import('express').Response, _next: unknown) => {
      errors++
      res.status(err.status ?? 500).send('error handler')
    })
    await request(app).get('/where').set('Host', 'a b/c').expect(status, body)
    expect(errors).toBe(0)
  })
})

describe('origin option validation', () => {
  it.each(['not a url', 'ftp://files.example', 'javascript:alert(1)'])('rejects %s when the bridge is created', (origin) => {
    expect(() => fetchBridge(urlApp(), { origin })).toThrow(TypeError)
  })
})
