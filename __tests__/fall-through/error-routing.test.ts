import request from 'supertest'
import { Hono } from 'hono'
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express'
import { fetchBridge, type FetchApp } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

describe.each(expressVersions)('error routing on %s', (_name, express) => {
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  beforeAll(() => process.on('unhandledRejection', onRejection))
  afterAll(() => process.off('unhandledRejection', onRejection))
  afterEach(async () => {
    // Give a stray rejection a chance to surface before checking.
    await new Promise((resolve) => setImmediate(resolve))
    expect(rejections).toEqual([])
  })

  function host(fetchApp: FetchApp) {
    const app = express()
    app.use(fetchBridge(fetchApp))
    app.use((err: unknown, req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
      const message = err instanceof Error ? `${err.constructor.name}: ${err.message}` : `value: ${String(err)}`
      res.status(599).json({ message, path: req.path })
    })
    return app
  }

  it('passes a synchronous throw of a function app to next(err)', async () => {
    const res = await request(
      host(() => {
        throw new RangeError('sync boom')
      }),
    ).get('/x')
    expect(res.status).toBe(599)
    expect(res.body).toEqual({ message: 'RangeError: sync boom', path: '/x' })
  })

  it('passes a rejection of a function app to next(err)', async () => {
    const res = await request(host(async () => Promise.reject(new Error('async boom')))).get('/y')
    expect(res.status).toBe(599)
    expect(res.body).toEqual({ message: 'Error: async boom', path: '/y' })
  })

  it('passes non-Error rejections on as they are', async () => {
    const res = await request(host(() => Promise.reject('plain string'))).get('/z')
    expect(res.status).toBe(599)
    expect(res.body.message).toBe('value: plain string')
  })

  it('passes an invalid return value to next(err) instead of hanging', async () => {
    const res = await request(host(() => ({ not: 'a response' }))).get('/bad')
    expect(res.status).toBe(599)
    expect(res.body.message).toMatch(/^TypeError: The app did not return a Response/)
  })

  it("lets Hono's default onError answer errors thrown in Hono handlers (500)", async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const hono = new Hono()
      hono.get('/fail', () => {
        throw new Error('hono boom')
      })
      await request(host(hono)).get('/fail').expect(500, 'Internal Server Error')
      expect(spy).toHaveBeenCalled()
    } finally {
      spy.mockRestore()
    }
  })

  it("keeps a custom Hono onError working", async () => {
    const hono = new Hono()
    hono.get('/fail', () => {
      throw new Error('hono boom')
    })
    hono.onError((err, c) => c.json({ hono: err.message }, 418))
    const res = await request(host(hono)).get('/fail').expect(418)
    expect(res.body).toEqual({ hono: 'hono boom' })
  })

  describe('onError((err) => { throw err }) hands Hono errors to the Express error handler', () => {
    function rethrowing() {
      const hono = new Hono()
      hono.onError((err) => {
        throw err
      })
      return hono
    }

    it('for a synchronous handler', async () => {
      const hono = rethrowing()
      hono.get('/sync', () => {
        throw new TypeError('from sync handler')
      })
      const res = await request(host(hono)).get('/sync').expect(599)
      expect(res.body).toEqual({ message: 'TypeError: from sync handler', path: '/sync' })
    })

    it('for an async handler', async () => {
      const hono = rethrowing()
      hono.get('/async', async () => {
        await new Promise((resolve) => setImmediate(resolve))
        throw new Error('from async handler')
      })
      const res = await request(host(hono)).get('/async').expect(599)
      expect(res.body.message).toBe('Error: from async handler')
    })

    it('for a handler behind middleware, and with fallthrough: false', async () => {
      const hono = rethrowing()
      hono.use(async (_c, next) => {
        await next()
      })
      hono.post('/mw', async () => {
        throw new Error('behind middleware')
      })
      const res = await request(host(hono)).post('/mw').expect(599)
      expect(res.body.message).toBe('Error: behind middleware')

      const app = express()
      app.use(fetchBridge(hono, { fallthrough: false }))
      app.use((err: Error, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
        res.status(598).send(err.message)
      })
      await request(app).post('/mw').expect(598, 'behind middleware')
    })

    it('for a route of a sub-app mounted with route()', async () => {
      const sub = new Hono()
      sub.get('/x', () => {
        throw new Error('in sub-app')
      })
      const hono = rethrowing()
      hono.route('/sub', sub)
      const res = await request(host(hono)).get('/sub/x').expect(599)
      expect(res.body.message).toBe('Error: in sub-app')
    })
  })
})
