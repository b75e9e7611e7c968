import http from 'node:http'
import { signedCookie } from 'cookie-parser'
import { RedisStore as SessionStore } from 'connect-redis'
import express from 'express'
import { rateLimit } from 'express-rate-limit'
import session from 'express-session'
import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { RedisStore as RateLimitStore } from 'rate-limit-redis'
import { WebSocketServer } from 'ws'
import { expressMiddleware, fetchBridge, type ExpressMiddlewareEnv } from 'express-fetch-bridge'
import { attachWebSockets, upgradeWebSocket } from 'express-fetch-bridge/websocket'
import { createRoom, createSocketIo } from './broadcast.js'
import { gracefulShutdown } from './graceful.js'
import { createRequestClient, isRedisUnavailable } from './redis.js'

declare module 'express-session' {
  interface SessionData {
    user: string
  }
}

export type Mode = 'middleware' | 'front-door'

export interface WorkerOptions {
  mode: Mode
  redisUrl: string
  /** Prefix of every Redis key and channel, so several deployments can share one Redis. */
  prefix?: string
  secret?: string
  /** Requests per client per minute on the rate-limited routes, counted across workers and sides. */
  rateLimit?: number
}

export interface Worker {
  server: http.Server
  /** Stop accepting, finish in-flight requests (`Connection: close`), close WebSockets and Redis. */
  drain(): Promise<void>
}

const pid = process.pid
const unavailable = { error: 'session store unavailable, try again shortly' }

/**
 * One worker: the legacy Express app and the Hono app, with every piece of state in Redis — sessions
 * (connect-redis), rate-limit counters (rate-limit-redis), WebSocket fan-out (pub/sub and socket.io's
 * Redis adapter) — so any worker can answer any request.
 */
export async function createWorker(options: WorkerOptions): Promise<Worker> {
  const prefix = options.prefix ?? 'scale-out:'
  const secret = options.secret ?? 'change-me'
  const client = createRequestClient(options.redisUrl)
  await client.connect()

  const store = new SessionStore({ client, prefix: `${prefix}sess:` })
  const sessions = session({ store, secret, resave: false, saveUninitialized: false })
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: options.rateLimit ?? 100,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new RateLimitStore({ sendCommand: (...args: string[]) => client.sendCommand(args), prefix: `${prefix}rl:` }),
  })
  const room = await createRoom(client, `${prefix}broadcast`)

  // The legacy routes, as they were. They read req.session whichever side ran the session middleware.
  const legacy = express.Router()
  legacy.post('/login', express.json(), (req, res, next) => {
    const user = typeof req.body?.user === 'string' ? req.body.user : undefined
    if (!user) return void res.status(400).json({ error: 'user required' })
    // A new session id on login (no fixation); saved before answering, so the next request, on any
    // worker, finds it.
    req.session.regenerate((err) => {
      if (err) return next(err)
      req.session.user = user
      req.session.save((err) => (err ? next(err) : res.json({ user, pid })))
    })
  })
  legacy.post('/logout', (req, res, next) => req.session.destroy((err) => (err ? next(err) : res.status(204).end())))
  legacy.get('/legacy/me', (req, res) => {
    const user = req.session.user
    if (!user) return void res.status(401).json({ error: 'log in first' })
    res.json({ user, servedBy: 'express', pid })
  })
  legacy.get('/legacy/quota', (_req, res) => res.json({ servedBy: 'express', pid }))
  const errors: express.ErrorRequestHandler = (err, _req, res, next) => {
    if (!isRedisUnavailable(err) || res.headersSent) return next(err)
    res.status(503).set('retry-after', '1').json(unavailable)
  }

  // Upgrades never pass through Express middleware: read the session from the same store.
  const sessionUser = createMiddleware<{ Variables: { user: string } }>(async (c, next) => {
    const cookie = getCookie(c, 'connect.sid')
    const sid = cookie === undefined ? false : signedCookie(cookie, secret)
    if (sid === false) return c.text('log in first', 401)
    const data = await store.get(sid).catch((err: unknown) => (isRedisUnavailable(err) ? 'unavailable' : Promise.reject(err)))
    if (data === 'unavailable') return c.json(unavailable, 503)
    if (!data?.user) return c.text('log in first', 401)
    c.set('user', data.user)
    await next()
  })

  const hono = new Hono<ExpressMiddlewareEnv>()
  if (options.mode === 'front-door') {
    // No Express in front: Hono runs the session and the limiter, for its routes and for the requests
    // it hands on to the legacy app (Hono middleware runs for those too), which reads req.session.
    // It runs for WebSocket upgrades too (on a stand-in response); the WebSocket route reads the
    // store itself (sessionUser) because in middleware mode Express's session never sees upgrades.
    hono.use(expressMiddleware({ app: false }, sessions))
    hono.use('/api/quota', expressMiddleware(limiter))
    hono.use('/legacy/quota', expressMiddleware(limiter))
  }
  hono.get('/api/health', (c) => c.json({ pid }))
  hono.get('/api/me', (c) => {
    const user = c.env.incoming.session?.user
    return user ? c.json({ user, servedBy: 'hono', pid }) : c.json({ error: 'log in first' }, 401)
  })
  hono.post('/api/logout', async (c) => {
    await new Promise<void>((resolve, reject) => c.env.incoming.session.destroy((err) => (err ? reject(err) : resolve())))
    return c.body(null, 204)
  })
  hono.get('/api/quota', (c) => c.json({ servedBy: 'hono', pid }))
  hono.post('/api/broadcast', async (c) => {
    const { text } = await c.req.json<{ text: string }>()
    await room.publish({ from: 'http', text })
    socketIo.io.emit('broadcast', { from: 'http', text, pid })
    return c.json({ sent: true, pid })
  })
  hono.get(
    '/api/ws',
    sessionUser,
    upgradeWebSocket((c) => {
      const user = c.get('user')
      return {
        onOpen(_evt, ws) {
          room.members.add(ws)
          ws.send(JSON.stringify({ hello: user, pid }))
        },
        onMessage(evt, ws) {
          if (typeof evt.data !== 'string') return ws.close(1003, 'text only')
          room.publish({ from: user, text: evt.data }).catch(() => ws.send(JSON.stringify(unavailable)))
        },
        onClose(_evt, ws) {
          room.members.delete(ws)
        },
      }
    }),
  )
  hono.onError((err, c: Context) => {
    if (options.mode === 'middleware') throw err // to the Express error handler
    if (isRedisUnavailable(err)) return c.json(unavailable, 503, { 'retry-after': '1' })
    console.error(err)
    return c.text('Internal Server Error', 500)
  })

  let server: http.Server
  let bridge: ReturnType<typeof fetchBridge>
  if (options.mode === 'front-door') {
    const app = express().use(legacy, errors)
    bridge = fetchBridge(hono, { fallback: app })
    server = http.createServer(bridge)
  } else {
    const app = express()
    app.use(sessions)
    app.use(['/api/quota', '/legacy/quota'], limiter)
    bridge = fetchBridge(hono)
    app.use(bridge, legacy, errors)
    server = http.createServer(app)
  }
  attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
  const socketIo = await createSocketIo(server, client)

  const drain = gracefulShutdown(server, {
    beforeClose: socketIo.disconnect,
    cleanup: async () => {
      await Promise.all([room.close(), socketIo.close()])
      client.destroy()
    },
  })
  return { server, drain }
}
