import request from 'supertest'
import { Hono } from 'hono'
import { setCookie } from 'hono/cookie'
import { stream } from 'hono/streaming'
import cors from 'cors'
import helmet from 'helmet'
import compression from 'compression'
import type { RequestHandler } from 'express'
import { fetchBridge } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

function honoApp() {
  const hono = new Hono()
  const cookies = (c: Parameters<typeof setCookie>[0]) => {
    setCookie(c, 'a', '1', { path: '/' })
    setCookie(c, 'b', '2', { httpOnly: true })
  }
  hono.get('/cookies', (c) => {
    cookies(c)
    return c.text('fast path')
  })
  hono.get('/cookies-stream', (c) => {
    cookies(c)
    return stream(c, async (s) => {
      await s.write('streamed')
    })
  })
  hono.get('/vary', (c) => {
    c.header('Vary', 'Accept, origin')
    return c.text('varies')
  })
  hono.get('/override', (c) => {
    c.header('X-Frame-Options', 'DENY')
    c.header('Content-Security-Policy', "default-src 'none'")
    return c.text('override')
  })
  hono.get('/big', (c) => {
    cookies(c)
    c.header('Vary', 'Accept')
    return c.text('x'.repeat(5000))
  })
  hono.get('/stream-body', (c) =>
    stream(c, async (s) => {
      await s.write('part1;')
      await s.write('part2')
    }),
  )
  return hono
}

function setCookies(res: request.Response): string[] {
  const value = res.headers['set-cookie'] as unknown
  return Array.isArray(value) ? value : value === undefined ? [] : [String(value)]
}

describe.each(expressVersions)('headers set by earlier middleware on %s', (_name, express) => {
  function host(...before: RequestHandler[]) {
    const app = express()
    for (const mw of before) app.use(mw)
    app.use(fetchBridge(honoApp()))
    return app
  }
  const sid: RequestHandler = (_req, res, next) => {
    res.cookie('sid', 'abc', { httpOnly: true })
    next()
  }

  it.each(['/cookies', '/cookies-stream'])('appends Hono cookies after an earlier res.cookie() (%s): three lines', async (path) => {
    const res = await request(host(sid)).get(path).expect(200)
    const cookies = setCookies(res)
    expect(cookies).toHaveLength(3)
    expect(cookies[0]).toMatch(/^sid=abc; Path=\/; HttpOnly$/)
    expect(cookies[1]).toBe('a=1; Path=/')
    expect(cookies[2]).toBe('b=2; Path=/; HttpOnly')
  })

  it('keeps several earlier cookies', async () => {
    const two: RequestHandler = (_req, res, next) => {
      res.cookie('one', '1')
      res.cookie('two', '2')
      next()
    }
    const res = await request(host(two)).get('/cookies').expect(200)
    expect(setCookies(res).map((line) => line.split('=')[0])).toEqual(['one', 'two', 'a', 'b'])
  })

  it('keeps cors headers and merges Vary without duplicates', async () => {
    const res = await request(host(cors({ origin: 'https://app.example' })))
      .get('/vary')
      .set('Origin', 'https://app.example')
      .expect(200)
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example')
    expect(res.headers['vary']).toBe('Origin, Accept')
  })

  it('keeps helmet headers, but the app wins for a header set on both sides', async () => {
    const res = await request(host(helmet())).get('/override').expect(200, 'override')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['content-security-policy']).toBe("default-src 'none'")
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('keeps headers that only earlier middleware set (X-Powered-By, custom)', async () => {
    const tag: RequestHandler = (_req, res, next) => {
      res.setHeader('X-Request-Id', 'r-1')
      next()
    }
    const res = await request(host(tag)).get('/vary').expect(200)
    expect(res.headers['x-request-id']).toBe('r-1')
    expect(res.headers['x-powered-by']).toBe('Express')
  })

  it('works with cors + helmet + compression + res.cookie() together', async () => {
    const app = host(compression(), cors({ origin: true }), helmet(), sid)
    const res = await request(app).get('/big').set('Origin', 'https://x.example').set('Accept-Encoding', 'gzip').expect(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.text).toBe('x'.repeat(5000))
    expect(res.headers['vary']?.split(/\s*,\s*/).sort()).toEqual(['Accept', 'Accept-Encoding', 'Origin'])
    expect(setCookies(res).map((line) => line.split('=')[0])).toEqual(['sid', 'a', 'b'])
    expect(res.headers['access-control-allow-origin']).toBe('https://x.example')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-length']).toBeUndefined()
  })

  it('drops a Content-Length that earlier middleware set: the framing is the app response\'s', async () => {
    const stale: RequestHandler = (_req, res, next) => {
      res.setHeader('Content-Length', '3')
      next()
    }
    const res = await request(host(stale)).get('/stream-body').expect(200)
    expect(res.text).toBe('part1;part2')
    const fixed = await request(host(stale)).get('/vary').expect(200)
    expect(fixed.text).toBe('varies')
    expect(fixed.headers['content-length']).toBe('6')
  })
})
