import compression from 'compression'
import cookieParser from 'cookie-parser'
import cors from 'cors'
import { doubleCsrf } from 'csrf-csrf'
import express from 'express'
import rateLimit from 'express-rate-limit'
import session from 'express-session'
import helmet from 'helmet'
import { Hono } from 'hono'
import { setCookie } from 'hono/cookie'
import morgan from 'morgan'
import multer from 'multer'
import passport from 'passport'
import { Strategy as LocalStrategy } from 'passport-local'
import path from 'node:path'
import serveStatic from 'serve-static'
import { expressMiddleware, type ExpressMiddlewareEnv } from '../../src/index.js'
import { host, MAIN_HOSTS, type Hosted } from '../helpers/hono-hosts.js'

// The real packages, each run inside Hono through expressMiddleware(), under front-door mode and
// under @hono/node-server's serve.
type App = Hono<ExpressMiddlewareEnv<'user'>>

let running: Hosted | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

/** Cookie header from a response's Set-Cookie lines. */
function cookies(res: globalThis.Response): string {
  return res.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
}

describe.each(MAIN_HOSTS)('real Express middleware inside Hono, under %s', (hostName) => {
  const start = async (hono: App) => {
    running = await host(hostName, hono)
    return running.url
  }

  it('express-session (MemoryStore): its cookie is merged with the Hono cookie, the session persists', async () => {
    const hono: App = new Hono()
    hono.use(expressMiddleware(session({ secret: 's3cret', resave: false, saveUninitialized: false, store: new session.MemoryStore() })))
    hono.get('/count', (c) => {
      const s = c.env.incoming.session as typeof c.env.incoming.session & { views?: number }
      s.views = (s.views ?? 0) + 1
      setCookie(c, 'theme', 'dark')
      return c.json({ views: s.views })
    })
    const url = await start(hono)
    const first = await fetch(url + '/count')
    expect(await first.json()).toEqual({ views: 1 })
    const names = first.headers.getSetCookie().map((line) => line.split('=')[0])
    expect(names.sort()).toEqual(['connect.sid', 'theme'])
    const second = await fetch(url + '/count', { headers: { cookie: cookies(first) } })
    expect(await second.json()).toEqual({ views: 2 })
  })

  it('passport + passport-local with sessions: login, req.user in Hono, logout', async () => {
    const users = { ada: { id: 'ada', name: 'Ada' } }
    const auth = new passport.Passport()
    auth.use(new LocalStrategy((username, password, done) => done(null, password === 'pw' ? users[username as 'ada'] ?? false : false)))
    auth.serializeUser((user, done) => done(null, (user as { id: string }).id))
    auth.deserializeUser((id: string, done) => done(null, users[id as 'ada'] ?? false))
    const hono: App = new Hono()
    hono.use(expressMiddleware({ vars: ['user'] }, session({ secret: 's', resave: false, saveUninitialized: false }), auth.initialize(), auth.session()))
    hono.post('/login', expressMiddleware(express.json(), auth.authenticate('local')), (c) => c.json(c.env.incoming.user ?? null))
    hono.get('/me', (c) => c.json({ user: c.var.user ?? null, authenticated: c.env.incoming.isAuthenticated() }))
    hono.post('/logout', async (c) => {
      await new Promise<void>((resolve, reject) => c.env.incoming.logout((err) => (err ? reject(err) : resolve())))
      return c.body(null, 204)
    })
    const url = await start(hono)
    const json = { 'content-type': 'application/json' }
    const wrong = await fetch(url + '/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'ada', password: 'no' }) })
    expect(wrong.status).toBe(401)
    const login = await fetch(url + '/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'ada', password: 'pw' }) })
    expect(await login.json()).toEqual({ id: 'ada', name: 'Ada' })
    let cookie = cookies(login)
    expect(await (await fetch(url + '/me', { headers: { cookie } })).json()).toEqual({ user: { id: 'ada', name: 'Ada' }, authenticated: true })
    const logout = await fetch(url + '/logout', { method: 'POST', headers: { cookie } })
    expect(logout.status).toBe(204)
    cookie = cookies(logout) || cookie
    expect(await (await fetch(url + '/me', { headers: { cookie } })).json()).toEqual({ user: null, authenticated: false })
  })

  it('express-rate-limit: the 429 ends the chain; its headers reach the Hono answers', async () => {
    let served = 0
    const hono: App = new Hono()
    hono.use(expressMiddleware(rateLimit({ windowMs: 60_000, limit: 2, standardHeaders: 'draft-7', legacyHeaders: false })))
    hono.get('/', (c) => (served++, c.text('ok')))
    const url = await start(hono)
    const ok = await fetch(url)
    expect(ok.headers.get('ratelimit')).toMatch(/limit=2/)
    await fetch(url)
    const limited = await fetch(url)
    expect(limited.status).toBe(429)
    expect(served).toBe(2)
  })

  it('helmet: its security headers are on the Hono response, Hono wins for a header it sets', async () => {
    const hono: App = new Hono()
    hono.use(expressMiddleware(helmet()))
    hono.get('/', (c) => c.text('safe', 200, { 'x-frame-options': 'DENY' }))
    const res = await fetch(await start(hono))
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(await res.text()).toBe('safe')
  })

  it('cors: the preflight is answered by cors; Vary is merged with the Hono response', async () => {
    const hono: App = new Hono()
    hono.use(expressMiddleware(cors({ origin: 'https://app.example' })))
    hono.get('/data', (c) => c.json({ ok: true }, 200, { vary: 'Accept-Encoding' }))
    const url = await start(hono)
    const preflight = await fetch(url + '/data', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const res = await fetch(url + '/data', { headers: { origin: 'https://app.example' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('vary')).toBe('Origin, Accept-Encoding')
  })

  it('multer: req.file for Hono, and c.req.parseBody() still sees the fields and the file', async () => {
    const hono: App = new Hono()
    hono.post('/upload', expressMiddleware(multer({ storage: multer.memoryStorage() }).single('doc')), async (c) => {
      const body = await c.req.parseBody()
      const file = body.doc as File
      return c.json({ title: body.title, name: file.name, text: await file.text(), multer: c.env.incoming.file?.originalname })
    })
    const form = new FormData()
    form.append('title', 'report')
    form.append('doc', new Blob(['file content'], { type: 'text/plain' }), 'a.txt')
    const res = await fetch((await start(hono)) + '/upload', { method: 'POST', body: form })
    expect(await res.json()).toEqual({ title: 'report', name: 'a.txt', text: 'file content', multer: 'a.txt' })
  })

  it('serve-static: a file is sent by serve-static, other paths go on to Hono', async () => {
    const hono: App = new Hono()
    hono.use(expressMiddleware(serveStatic(path.join(__dirname, '..', 'fixtures', 'static'))))
    hono.get('*', (c) => c.text('hono'))
    const url = await start(hono)
    const css = await fetch(url + '/site.css')
    expect(css.headers.get('content-type')).toMatch(/text\/css/)
    expect(await css.text()).toBe('body { color: red }\n')
    expect(await (await fetch(url + '/missing.css')).text()).toBe('hono')
  })

  it('morgan: logs the Hono answer once it is finished', async () => {
    const lines: string[] = []
    const hono: App = new Hono()
    hono.use(expressMiddleware(morgan(':method :url :status', { stream: { write: (line: string) => void lines.push(line.trim()) } })))
    hono.get('/logged', (c) => c.text('hello', 201))
    await fetch((await start(hono)) + '/logged')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(lines).toEqual(['GET /logged 201'])
  })

  it('compression: the Hono body is gzipped and arrives intact', async () => {
    const text = 'compress me '.repeat(500)
    const hono: App = new Hono()
    hono.use(expressMiddleware(compression()))
    hono.get('/big', (c) => c.text(text))
    const res = await fetch((await start(hono)) + '/big', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(await res.text()).toBe(text)
  })

  it('cookie-parser: req.cookies in Hono; a res.cookie() from the middleware is merged with the Hono cookie', async () => {
    const hono: App = new Hono()
    hono.use(
      expressMiddleware(cookieParser('sign'), (_req: express.Request, res: express.Response, next: express.NextFunction) => {
        res.cookie('seen', '1')
        next()
      }),
    )
    hono.get('/', (c) => {
      setCookie(c, 'hono', 'yes')
      return c.json(c.env.incoming.cookies)
    })
    const res = await fetch(await start(hono), { headers: { cookie: 'a=1; b=2' } })
    expect(await res.json()).toEqual({ a: '1', b: '2' })
    expect(res.headers.getSetCookie().map((line) => line.split(';')[0])).toEqual(['seen=1', 'hono=yes'])
  })

  it("csrf-csrf: a missing token is a 403 for Hono's onError; a valid one passes", async () => {
    const { doubleCsrfProtection, generateCsrfToken } = doubleCsrf({
      getSecret: () => 'csrf-secret',
      getSessionIdentifier: () => 'one-session',
      cookieName: 'csrf',
      cookieOptions: { secure: false },
    })
    const hono: App = new Hono()
    hono.use(expressMiddleware(cookieParser(), doubleCsrfProtection))
    hono.get('/token', (c) => c.json({ token: generateCsrfToken(c.env.incoming, c.env.outgoing) }))
    hono.post('/change', (c) => c.text('changed'))
    const url = await start(hono)
    const tokenRes = await fetch(url + '/token')
    const { token } = (await tokenRes.json()) as { token: string }
    const cookie = cookies(tokenRes)
    const rejected = await fetch(url + '/change', { method: 'POST', headers: { cookie } })
    expect(rejected.status).toBe(403)
    const accepted = await fetch(url + '/change', { method: 'POST', headers: { cookie, 'x-csrf-token': token } })
    expect([accepted.status, await accepted.text()]).toEqual([200, 'changed'])
  })
})
