import express, { type NextFunction, type Request, type Response } from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { fetchBridge, type ExpressBindings } from 'express-fetch-bridge'

export interface User {
  id: string
  name: string
}

// Tell TypeScript about what the auth middleware adds, as any Express app with auth does. Hono sees
// the same type through ExpressBindings (`c.env.incoming` is this Express Request).
declare global {
  namespace Express {
    interface Request {
      user?: User
    }
  }
}
declare module 'express-session' {
  interface SessionData {
    userId: string
  }
}

// A stand-in for a user database and an API-token table.
const users: Record<string, User & { password: string }> = {
  alice: { id: 'alice', name: 'Alice', password: 'wonderland' },
  bob: { id: 'bob', name: 'Bob', password: 'builder' },
}
const apiTokens: Record<string, string> = { 'alice-token': 'alice', 'bob-token': 'bob' }

function publicUser(id: string | undefined): User | undefined {
  const user = id === undefined ? undefined : users[id]
  return user && { id: user.id, name: user.name }
}

const unauthorized = { error: 'unauthorized' }

/** Express: sets `req.user` from the session cookie or an `Authorization: Bearer` token; never rejects. */
function authenticate(req: Request, _res: Response, next: NextFunction) {
  const auth = req.headers.authorization
  if (auth?.startsWith('Bearer ')) req.user = publicUser(apiTokens[auth.slice(7)])
  else req.user = publicUser(req.session.userId)
  next()
}

/** Express: 401 for routes that need a user. */
function requireUser(req: Request, res: Response, next: NextFunction) {
  if (req.user === undefined) res.status(401).json(unauthorized)
  else next()
}

/** Hono: the same rule on the Hono side, reading what the Express middleware found. */
const requireUserHono = createMiddleware<{ Bindings: ExpressBindings }>(async (c, next) => {
  if (c.env.incoming.user === undefined) return c.json(unauthorized, 401)
  await next()
})

/** Routes already moved to Hono: they read the user Express authenticated. */
export function createHono() {
  const hono = new Hono<{ Bindings: ExpressBindings }>()
  hono.get('/api/profile', requireUserHono, (c) => {
    const user = c.env.incoming.user!
    return c.json({ id: user.id, name: user.name, servedBy: 'hono' })
  })
  hono.get('/api/greeting', requireUserHono, (c) => c.text(`Hello, ${c.env.incoming.user!.name}`))
  return hono
}

export function createApp({ secret = process.env.SESSION_SECRET ?? 'dev-only-secret' } = {}) {
  const app = express()
  app.use(session({ secret, resave: false, saveUninitialized: false }))
  app.use(authenticate)

  // Express routes (login, logout and a route not moved yet).
  app.post('/login', express.json(), (req, res, next) => {
    const user = users[req.body?.username]
    if (user === undefined || user.password !== req.body?.password) {
      res.status(401).json(unauthorized)
      return
    }
    // A fresh session id on login, against session fixation.
    req.session.regenerate((err) => {
      if (err) return next(err)
      req.session.userId = user.id
      res.json(publicUser(user.id))
    })
  })
  app.post('/logout', (req, res, next) => {
    req.session.destroy((err) => (err ? next(err) : res.status(204).end()))
  })
  app.get('/api/orders', requireUser, (req, res) => {
    res.json({ user: req.user!.id, orders: [], servedBy: 'express' })
  })

  app.use(fetchBridge(createHono()))
  return app
}
