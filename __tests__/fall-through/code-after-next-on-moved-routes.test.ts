import express from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'
import { recordedTrial } from '../shadow/trial'

// docs/guide/day-one.md, "Code after next() and moved routes": an Express middleware that changes the
// session after next() (Express's own examples/mvc) did so after an Express route that answered in the
// same tick; once the route is moved to Hono and answers after an await (async Hono middleware, an
// awaiting handler), that code runs first, and express-session (saveUninitialized: false) sends
// anonymous visitors a Set-Cookie. A shadow run does not see it; changing the session before next() avoids it.

type Flash = { messages?: string[] }

/** Express's examples/mvc flash messages: cleared after next(). */
const clearAfterNext: express.RequestHandler = (req, _res, next) => {
  next()
  ;(req.session as Flash).messages = []
}

/** The same, done before next() and only when there is something to clear. */
const clearBeforeNext: express.RequestHandler = (req, res, next) => {
  const messages = (req.session as Flash).messages ?? []
  res.locals.messages = messages
  if (messages.length > 0) (req.session as Flash).messages = []
  next()
}

function server(flash: express.RequestHandler, hono?: Hono, options?: Parameters<typeof fetchBridge>[1]) {
  const app = express()
  app.use(session({ secret: 's', resave: false, saveUninitialized: false }))
  app.get('/flash', (req, res) => {
    ;(req.session as Flash).messages = ['saved']
    res.send('ok')
  })
  app.use(flash)
  if (hono !== undefined) app.use(fetchBridge(hono, options))
  app.get('/users/:id', (req, res) => void res.json({ id: req.params.id }))
  app.get('/later/:id', async (req, res) => void res.json({ id: await Promise.resolve(req.params.id) }))
  app.get('/messages', (_req, res) => void res.json(res.locals.messages))
  return app
}

/** The Express route moved to Hono, answering in the same tick or after an await. */
function moved(kind: 'sync' | 'async middleware' | 'awaiting handler'): Hono {
  const hono = new Hono()
  if (kind === 'async middleware') hono.use('*', async (_c, next) => await next())
  if (kind === 'awaiting handler') {
    hono.get('/users/:id', async (c) => {
      await Promise.resolve()
      return c.json({ id: c.req.param('id') })
    })
  } else hono.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
  return hono
}

const cookieOf = async (app: express.Express) => (await request(app).get('/users/7').expect(200, { id: '7' })).headers['set-cookie']

describe('an Express middleware changing the session after next(), and a route moved to Hono', () => {
  it('the Express route, and a Hono route answering in the same tick: no cookie for an anonymous visitor', async () => {
    expect(await cookieOf(server(clearAfterNext))).toBeUndefined()
    expect(await cookieOf(server(clearAfterNext, moved('sync')))).toBeUndefined()
  })

  it('an Express route that answers after an await sends the cookie already', async () => {
    expect((await request(server(clearAfterNext)).get('/later/7').expect(200)).headers['set-cookie']).toBeDefined()
  })

  it.each(['async middleware', 'awaiting handler'] as const)(
    'a Hono route answering after an await (%s): the change comes first, and express-session sends a cookie',
    async (kind) => {
      expect(await cookieOf(server(clearAfterNext, moved(kind)))).toBeDefined()
    },
  )

  it('a shadow run does not flag it (the cookie is on neither compared side); the canary answer carries it', async () => {
    const { trial, until } = recordedTrial({ routes: [{ route: '/users/:id' }] })
    expect(await cookieOf(server(clearAfterNext, moved('async middleware'), { shadow: trial }))).toBeUndefined()
    const [result] = await until(1)
    expect(result.outcome).toBe('match')
    const canary = recordedTrial({ routes: [{ route: '/users/:id', canary: 100 }] })
    expect(await cookieOf(server(clearAfterNext, moved('async middleware'), { shadow: canary.trial }))).toBeDefined()
  })

  it('changed before next(), and only when there is something to clear: no cookie on either side, and the flash still clears', async () => {
    expect(await cookieOf(server(clearBeforeNext))).toBeUndefined()
    for (const kind of ['async middleware', 'awaiting handler'] as const) {
      const app = server(clearBeforeNext, moved(kind))
      expect(await cookieOf(app)).toBeUndefined()
      const agent = request.agent(app)
      await agent.get('/flash').expect(200)
      await agent.get('/messages').expect(200, ['saved'])
      await agent.get('/messages').expect(200, [])
      await agent.get('/flash').expect(200)
      // The flash is cleared through the moved route too, with no new cookie (the visitor has one).
      expect((await agent.get('/users/7').expect(200)).headers['set-cookie']).toBeUndefined()
      await agent.get('/messages').expect(200, [])
    }
  })
})
