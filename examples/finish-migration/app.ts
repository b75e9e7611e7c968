import express from 'express'
import session from 'express-session'
import { Hono } from 'hono'
import passport from 'passport'
import { Strategy as LocalStrategy } from 'passport-local'
import { expressMiddleware, fetchBridge, type ExpressMiddlewareEnv } from 'express-fetch-bridge'

/**
 * The last step of a migration: Hono is the front door and owns the cross-cutting middleware
 * (express-session + passport, run through expressMiddleware()); the few routes not moved yet stay
 * in the legacy Express app, which still sees req.user and req.session.
 */

export interface User {
  id: string
  name: string
}
declare global {
  namespace Express {
    interface User {
      id: string
      name: string
    }
  }
}

// A stand-in for the user database.
const users: Record<string, User & { password: string }> = {
  alice: { id: 'alice', name: 'Alice', password: 'wonderland' },
}
const publicUser = (id: string): User | false => (users[id] ? { id, name: users[id].name } : false)

export function createApp({ secret = process.env.SESSION_SECRET ?? 'dev-only-secret' } = {}) {
  const auth = new passport.Passport()
  auth.use(new LocalStrategy((username, password, done) => done(null, users[username]?.password === password ? publicUser(username) : false)))
  auth.serializeUser((user, done) => done(null, user.id))
  auth.deserializeUser((id: string, done) => done(null, publicUser(id)))

  // The routes not moved yet: they read what the Hono-side middleware put on req.
  const legacy = express()
  legacy.get('/legacy/report', (req, res) => {
    if (!req.user) return void res.status(401).json({ error: 'unauthorized' })
    res.json({ report: `numbers for ${req.user.name}`, servedBy: 'express' })
  })

  const hono = new Hono<ExpressMiddlewareEnv<'user'>>()
  hono.use(
    expressMiddleware(
      { app: legacy, vars: ['user'] },
      session({ secret, resave: false, saveUninitialized: false }),
      auth.initialize(),
      auth.session(),
    ),
  )
  // c.var.user was copied before this login ran: read the fresh req.user.
  hono.post('/login', expressMiddleware(express.json(), auth.authenticate('local')), (c) => c.json(c.env.incoming.user ?? null))
  hono.post('/logout', async (c) => {
    await new Promise<void>((resolve, reject) => c.env.incoming.logout((err) => (err ? reject(err) : resolve())))
    return c.body(null, 204)
  })
  hono.get('/api/me', (c) => {
    const user = c.var.user
    return user ? c.json({ ...user, servedBy: 'hono' }) : c.json({ error: 'unauthorized' }, 401)
  })

  return fetchBridge(hono, { fallback: legacy })
}
