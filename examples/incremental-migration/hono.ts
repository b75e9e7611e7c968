import { Hono } from 'hono'
import { HttpError, type Db } from './db.js'

/**
 * Routes moved from Express. Moving one: copy the handler here in Hono style, run the tests, delete
 * the Express version from legacy.ts. Requests these routes do not match fall through to Express.
 */
export function movedRoutes(db: Db) {
  const hono = new Hono()
  hono.use(async (c, next) => {
    await next()
    c.header('x-served-by', 'hono')
  })

  hono.get('/users', (c) => c.json(db.users.list()))

  hono.get('/users/:id', (c) => {
    const user = db.users.get(Number(c.req.param('id')))
    // The same error type the Express routes throw, so the Express error handler formats it.
    if (user === undefined) throw new HttpError(404, 'user not found')
    return c.json(user)
  })

  // express.json() already read this body; the bridge hands it over, so c.req.json() just works.
  hono.post('/users', async (c) => {
    const { name, email } = await c.req.json()
    if (typeof name !== 'string' || typeof email !== 'string') throw new HttpError(400, 'name and email are required')
    return c.json(db.users.add(name, email), 201)
  })

  // A form post (express.urlencoded() ran first), read with Hono's own parser.
  hono.post('/newsletter', async (c) => {
    const form = await c.req.parseBody()
    if (typeof form.email !== 'string') throw new HttpError(400, 'email is required')
    db.subscribers.push(form.email)
    return c.json({ subscribed: form.email })
  })

  // Hand every error to Express (next(err)) instead of Hono's default 500 page.
  hono.onError((err) => {
    throw err
  })
  return hono
}
