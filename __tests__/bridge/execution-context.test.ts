import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

describe('ctx (c.executionCtx)', () => {
  it('waitUntil keeps a background task; its failure becomes a process warning, not an unhandled rejection', async () => {
    // Jest gives each test file its own `process`: watch the call rather than the 'warning' event.
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      let finished = false
      const hono = new Hono()
      hono.get('/bg', (c) => {
        c.executionCtx.waitUntil(new Promise<void>((resolve) => setTimeout(() => ((finished = true), resolve()), 10)))
        c.executionCtx.waitUntil(Promise.reject(new Error('background job failed')))
        return c.text('answered')
      })
      const app = express()
      app.use(fetchBridge(hono))
      const res = await request(app).get('/bg')
      expect(res.status).toBe(200)
      expect(res.text).toBe('answered')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(finished).toBe(true)
      const messages = emitWarning.mock.calls.map((call) => String(call[0]))
      expect(messages.some((m) => /waitUntil\(\) task failed: Error: background job failed/.test(m))).toBe(true)
    } finally {
      emitWarning.mockRestore()
    }
  })

  it('passThroughOnException exists (Workers-style apps call it) and errors still reach next(err)', async () => {
    const app = express()
    app.use(
      fetchBridge((_request: Request, _env: unknown, ctx) => {
        ctx.passThroughOnException()
        throw new Error('boom')
      }),
    )
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).send(`handled: ${err.message}`)
    })
    const res = await request(app).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe('handled: boom')
  })
})
