// The legacy tax (bench/legacy-tax.ts): an Express 5 route, alone or behind a bridge over a migrating
// Hono app. LEGACY_BRIDGE: none | middleware | front-door; LEGACY_ROUTES and LEGACY_MIDDLEWARE size
// the Hono app (bench/app.ts createMigratingHono); LEGACY_HONO_MIDDLEWARE, if set, is the bridge's
// honoMiddleware option.
import express from 'express'
import { fetchBridge } from '../../src/index.js'
import { createMigratingHono } from '../app.js'
import { ready } from './listen.js'

const bridge = process.env.LEGACY_BRIDGE ?? 'none'
const hono = () => createMigratingHono(Number(process.env.LEGACY_ROUTES ?? 200), Number(process.env.LEGACY_MIDDLEWARE ?? 2))
const honoMiddleware = (process.env.LEGACY_HONO_MIDDLEWARE || undefined) as 'routes' | 'all' | undefined
const app = express()
if (bridge === 'middleware') app.use(fetchBridge(hono(), { honoMiddleware }))
app.get('/legacy', (_req, res) => {
  res.json({ legacy: true })
})
ready(bridge === 'front-door' ? fetchBridge(hono(), { fallback: app, honoMiddleware }).listen(0, '127.0.0.1') : app.listen(0, '127.0.0.1'))
