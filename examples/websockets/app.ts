import http from 'node:http'
import { signedCookie } from 'cookie-parser'
import express from 'express'
import session, { MemoryStore } from 'express-session'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { Server as SocketIOServer } from 'socket.io'
import { WebSocketServer } from 'ws'
import { fetchBridge } from 'express-fetch-bridge'
import { attachWebSockets, upgradeWebSocket } from 'express-fetch-bridge/websocket'

declare module 'express-session' {
  interface SessionData {
    user: string
  }
}

/**
 * A legacy Express app with express-session and a socket.io namespace, plus a new Hono chat route
 * served over WebSockets by the bridge. The chat authenticates upgrades with the legacy session.
 */
export function createServer(options: { secret?: string } = {}): http.Server {
  const secret = options.secret ?? 'change-me'
  const store = new MemoryStore()

  // The session an upgrade's cookie names, read straight from the legacy session store (upgrades
  // never pass through Express middleware).
  const sessionUser = createMiddleware<{ Variables: { user: string } }>(async (c, next) => {
    const cookie = getCookie(c, 'connect.sid')
    const sid = cookie === undefined ? false : signedCookie(cookie, secret)
    const user = sid === false ? undefined : await new Promise<string | undefined>((resolve) => {
      store.get(sid, (err, data) => resolve(err ? undefined : data?.user))
    })
    if (user === undefined) return c.text('log in first', 401)
    c.set('user', user)
    await next()
  })

  const room = new Set<{ send(text: string): void }>()
  const hono = new Hono()
  hono.get('/chat', sessionUser, upgradeWebSocket((c) => {
    const user = c.get('user')
    return {
      onOpen(_evt, ws) {
        room.add(ws)
        for (const member of room) member.send(`* ${user} joined`)
      },
      onMessage(evt, ws) {
        if (typeof evt.data !== 'string') return ws.close(1003, 'text only')
        for (const member of room) member.send(`${user}: ${evt.data}`)
      },
      onClose(_evt, ws) {
        room.delete(ws)
      },
    }
  }))
  hono.get('/room', (c) => c.json({ members: room.size }))

  const app = express()
  app.use(express.json())
  app.use(session({ secret, store, resave: false, saveUninitialized: false }))
  app.post('/login', (req, res) => {
    const user = typeof req.body?.user === 'string' ? req.body.user : undefined
    if (!user) return void res.status(400).json({ error: 'user required' })
    req.session.user = user
    res.json({ user })
  })
  const bridge = fetchBridge(hono)
  app.use('/api', bridge)

  const server = http.createServer(app)
  // One line: Hono's upgradeWebSocket routes on this server; every other upgrade goes on to socket.io.
  attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })

  const io = new SocketIOServer(server)
  io.of('/notifications').on('connection', (socket) => socket.emit('hello', 'from the legacy socket.io namespace'))
  return server
}
