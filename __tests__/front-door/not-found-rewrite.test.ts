import express from 'express'
import { Hono } from 'hono'
import { trimTrailingSlash } from 'hono/trailing-slash'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

/**
 * Middleware that turns the not-found 404 into another answer (hono/trailing-slash's 301) gives the
 * same answer with fall-through on as with `fallthrough: false`: headers the app's notFound handler
 * set are kept. `/about/` has no route of its own (strict routing): trimTrailingSlash(), middleware for
 * every path, runs for it with `honoMiddleware: 'all'`.
 */

function build(fallthrough: boolean, notFoundCalls: string[]) {
  const hono = new Hono()
  hono.use(trimTrailingSlash())
  hono.get('/about', (c) => c.text('about'))
  hono.notFound((c) => {
    notFoundCalls.push(c.req.path)
    c.header('cache-control', 'no-store')
    c.header('set-cookie', 'seen=1')
    return c.text('nothing here', 404)
  })
  const app = express()
  app.use(fetchBridge(hono, { fallthrough, honoMiddleware: 'all' }))
  app.use((_req, res) => res.status(418).send('express'))
  return app
}

/** The parts of an answer that must not depend on the fall-through setting. */
function answer(res: request.Response) {
  const { date: _date, location, ...headers } = res.headers
  return { status: res.status, location: new URL(location, 'http://x').pathname, headers, body: res.text }
}

describe('a not-found 404 rewritten by middleware', () => {
  it('hono/trailing-slash: same answer with fall-through on and off, notFound headers included', async () => {
    const off = await request(build(false, [])).get('/about/')
    const on = await request(build(true, [])).get('/about/')
    expect(off.status).toBe(301)
    expect(off.headers['cache-control']).toBe('no-store')
    expect(answer(on)).toEqual(answer(off))
    expect(on.headers['set-cookie']).toEqual(['seen=1'])
  })

  it('a late notFound() handler (set after the bridge was made) is the one used', async () => {
    const hono = new Hono()
    hono.use(trimTrailingSlash())
    hono.get('/about', (c) => c.text('about'))
    const app = express()
    app.use(fetchBridge(hono, { honoMiddleware: 'all' }))
    hono.notFound((c) => c.text('late', 404, { 'x-late': '1' }))
    const res = await request(app).get('/about/')
    expect(res.status).toBe(301)
    expect(res.headers['x-late']).toBe('1')
  })

  it("by default a path with no route is Express's: trimTrailingSlash() does not run for it", async () => {
    const hono = new Hono()
    hono.use(trimTrailingSlash())
    hono.get('/about', (c) => c.text('about'))
    const app = express().use(fetchBridge(hono))
    app.use((req, res) => res.status(418).send(`express ${req.url}`))
    await request(app).get('/about/').expect(418, 'express /about/')
  })

  it("a not-found answer nobody rewrote falls through; middleware saw the app's own answer", async () => {
    const calls: string[] = []
    const res = await request(build(true, calls)).get('/missing')
    expect(res.status).toBe(418)
    expect(res.text).toBe('express')
    expect(res.headers['cache-control']).toBeUndefined()
    // trimTrailingSlash() (middleware for every path, 'all') looked at the app's notFound answer.
    expect(calls).toEqual(['/missing'])
  })

  it('without middleware around it the notFound handler does not run for a request that falls through', async () => {
    const calls: string[] = []
    const hono = new Hono()
    hono.get('/gone', (c) => c.notFound())
    hono.notFound((c) => (calls.push(c.req.path), c.text('nothing here', 404)))
    const app = express().use(fetchBridge(hono))
    app.use((_req, res) => res.status(418).send('express'))
    await request(app).get('/gone').expect(418, 'express')
    expect(calls).toEqual([])
  })
})
