import express from 'express'
import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'

// `env()` adds bindings; `incoming` and `outgoing` are always the request's own req and res.

it('env() cannot replace incoming/outgoing; its other bindings are kept', async () => {
  const hono = new Hono<{ Bindings: { incoming: unknown; outgoing: unknown; requestId: string } }>()
  hono.get('/env', (c) =>
    c.json({
      incoming: c.env.incoming === (c.env.outgoing as express.Response).req,
      isExpressReq: typeof (c.env.incoming as express.Request).get === 'function',
      requestId: c.env.requestId,
    }),
  )
  const app = express()
  app.use(
    fetchBridge(hono, {
      env: (req: express.Request) => ({ incoming: 'replaced', outgoing: 'replaced', requestId: req.get('x-request-id') }),
    }),
  )
  await request(app).get('/env').set('x-request-id', 'r1').expect(200, { incoming: true, isExpressReq: true, requestId: 'r1' })
})
