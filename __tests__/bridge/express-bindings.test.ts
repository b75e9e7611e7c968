import request from 'supertest'
import { Hono } from 'hono'
import session from 'express-session'
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from 'express'
import { fetchBridge, type ExpressBindings } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'

// What an auth middleware would declare; express-session declares `req.session` itself.
declare global {
  namespace Express {
    interface Request {
      user?: { id: string; name: string }
    }
  }
}
declare module 'express-session' {
  interface SessionData {
    views: number
  }
}

// Compile-time checks (tsc runs over __tests__ in `npm test`).
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const typeChecks: [
  Equals<ExpressBindings['incoming'], ExpressRequest>,
  Equals<ExpressBindings['outgoing'], ExpressResponse>,
  Equals<ExpressBindings['incoming']['user'], { id: string; name: string } | undefined>,
  Equals<NonNullable<ExpressBindings['incoming']['session']['views']>, number>,
] = [true, true, true, true]

describe.each(expressVersions)('ExpressBindings on %s', (_name, express) => {
  const auth: RequestHandler = (req, _res, next) => {
    if (req.headers.authorization === 'Bearer ok') req.user = { id: 'u1', name: 'Ada' }
    next()
  }

  it('types and passes c.env.incoming as the Express request (req.user from auth middleware)', async () => {
    expect(typeChecks).toEqual([true, true, true, true])
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.get('/me', (c) => {
      const user = c.env.incoming.user
      // Express request and response members are there at runtime and in the types.
      c.env.outgoing.setHeader('x-express-path', c.env.incoming.path)
      return user ? c.json(user) : c.text('anonymous', 401)
    })
    const app = express()
    app.use(auth)
    app.use(fetchBridge(hono))
    const res = await request(app).get('/me').set('Authorization', 'Bearer ok').expect(200)
    expect(res.body).toEqual({ id: 'u1', name: 'Ada' })
    expect(res.headers['x-express-path']).toBe('/me')
    await request(app).get('/me').expect(401, 'anonymous')
  })

  it('gives Hono routes the express-session session', async () => {
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.get('/count', (c) => {
      const s = c.env.incoming.session
      s.views = (s.views ?? 0) + 1
      return c.json({ views: s.views })
    })
    const app = express()
    app.use(session({ secret: 'test secret', resave: false, saveUninitialized: true }))
    app.use(fetchBridge(hono))
    const agent = request.agent(app)
    await agent.get('/count').expect(200, { views: 1 })
    await agent.get('/count').expect(200, { views: 2 })
    await agent.get('/count').expect(200, { views: 3 })
  })

  it('merges the env option after incoming and outgoing', async () => {
    const hono = new Hono<{ Bindings: ExpressBindings & { userName: string; requestId: string } }>()
    hono.get('/env', (c) =>
      c.json({ userName: c.env.userName, requestId: c.env.requestId, same: c.env.incoming.path === '/env' }),
    )
    const app = express()
    app.use(auth)
    app.use(
      fetchBridge<ExpressRequest, ExpressResponse>(hono, {
        env: (req, res) => ({ userName: req.user?.name ?? 'nobody', requestId: String(res.getHeader('x-powered-by')) }),
      }),
    )
    const res = await request(app).get('/env').set('Authorization', 'Bearer ok').expect(200)
    expect(res.body).toEqual({ userName: 'Ada', requestId: 'Express', same: true })
  })
})
