import { counts } from '../helpers/count-constructors.js'
import { inspect } from 'node:util'
import express from 'express'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// util.inspect / console.log of the lazy Request is cheap (no real Request is built) and truthful.

function inspecting(read?: (r: Request) => Promise<unknown>) {
  const app = express()
  app.use(
    fetchBridge(async (lazy: Request) => {
      if (read !== undefined) await read(lazy)
      const before = counts.Request
      const shown = inspect(lazy, { depth: 4 })
      return Response.json({ shown, built: counts.Request - before, bodyUsed: lazy.bodyUsed })
    }),
  )
  return app
}

describe('util.inspect(c.req.raw)', () => {
  it('shows method, url and headers without building the real Request', async () => {
    const res = await request(inspecting()).post('/path?q=1').set('x-custom', 'custom-value').send('abc')
    const { shown, built } = res.body
    expect(built).toBe(0)
    expect(shown).toMatch(/^Request /)
    expect(shown).toContain("method: 'POST'")
    expect(shown).toMatch(/url: 'http:\/\/127\.0\.0\.1:\d+\/path\?q=1'/)
    expect(shown).toContain("'x-custom': 'custom-value'")
    expect(shown).toContain('bodyUsed: false')
  })

  it('shows the body as used after a read', async () => {
    const res = await request(inspecting((r) => r.text())).post('/').send('abc')
    expect(res.body.built).toBe(0)
    expect(res.body.shown).toContain('bodyUsed: true')
  })

  it('a GET shows a null body', async () => {
    const res = await request(inspecting()).get('/')
    expect(res.body.built).toBe(0)
    expect(res.body.shown).toContain('body: null')
  })
})
