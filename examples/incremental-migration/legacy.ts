import { Router, type ErrorRequestHandler } from 'express'
import { HttpError, type Db } from './db.js'

/**
 * The Express routes that have not moved yet. Each moved route is deleted here once its Hono version
 * (hono.ts) is live; the bridge runs first, so while both exist the Hono one wins.
 */
export function legacyRoutes(db: Db) {
  const router = Router()
  router.use((_req, res, next) => {
    res.setHeader('x-served-by', 'express')
    next()
  })

  // MOVED to hono.ts — this was the Express version:
  // router.get('/users', (req, res) => res.json(db.users.list()))
  // router.get('/users/:id', (req, res) => { … res.json(user) })
  // router.post('/users', (req, res) => { … res.status(201).json(user) })

  router.get('/orders', (_req, res) => {
    res.json([{ id: 100, userId: 1, total: 42 }])
  })

  // Hono has /users/:id but not this one: it stays in Express until it moves too.
  router.get('/users/:id/orders', (req, res) => {
    const user = db.users.get(Number(req.params.id))
    if (user === undefined) throw new HttpError(404, 'user not found')
    res.json({ user: user.id, orders: [] })
  })

  // A form post, parsed by express.urlencoded() in app.ts.
  router.post('/contact', (req, res) => {
    res.json({ thanks: req.body.name, message: req.body.message })
  })

  router.get('/reports/:id', (req) => {
    throw new HttpError(403, `report ${req.params.id} is restricted`)
  })

  return router
}

/** The app's one error handler; errors from Hono routes end up here too (see hono.ts). */
export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  const status = typeof err?.status === 'number' ? err.status : 500
  res.status(status).json({ error: status === 500 ? 'internal error' : err.message })
}
