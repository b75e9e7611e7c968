// The cost of a shadow trial (bench/shadow-cost.ts): an Express 5 route behind the bridge, its Hono
// twin under trial or not. SHADOW: off (no trial: Express answers, Hono has no such route) | on (the
// route under trial at 100% sampling, noise runs at their default) | other (a trial on another route).
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, shadowTrial } from '../../src/index.js'
import { ready } from './listen.js'

const mode = process.env.SHADOW ?? 'off'
const body = { id: 1, name: 'Lamp', price: 10, tags: ['a', 'b', 'c'], stock: { warehouse: 12, shop: 3 } }
const hono = new Hono()
hono.get('/other', (c) => c.json(body))
if (mode === 'on') hono.get('/products/:id', (c) => c.json({ ...body, id: Number(c.req.param('id')) }))
const trial = mode === 'off' ? undefined : shadowTrial({ routes: [{ route: mode === 'on' ? '/products/:id' : '/other' }], maxConcurrent: 64 })
const app = express()
app.use(fetchBridge(hono, { shadow: trial }))
app.get('/products/:id', (req, res) => {
  res.json({ ...body, id: Number(req.params.id) })
})
ready(app.listen(0, '127.0.0.1'))
