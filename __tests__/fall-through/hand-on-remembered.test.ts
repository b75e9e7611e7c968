import express from 'express'
import { Hono } from 'hono'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { TrieRouter } from 'hono/router/trie-router'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// The hand-on check remembers its answer per method and target, and hands the router match it made to
// the dispatch that follows: neither may change what a request gets.
function server(hono: Hono) {
  const calls: string[] = []
  const app = express()
  app.use(fetchBridge(hono, { env: (req: express.Request) => (calls.push(`${req.method} ${req.url}`), {}) }))
  app.use((req, res) => {
    res.send(`express ${req.method} ${req.url}`)
  })
  return { app, calls }
}

/** A real router whose matches are counted. */
function counted<R extends { match(method: string, path: string): unknown }>(router: R) {
  const count = { matches: 0 }
  const wrapped = {
    name: 'counted',
    add: (...args: unknown[]) => (router as unknown as { add(...a: unknown[]): void }).add(...args),
    match: (method: string, path: string) => (count.matches++, router.match(method, path)),
  }
  return { router: wrapped as unknown as R, count }
}

it('answers each method apart: a target remembered for GET is checked again for POST', async () => {
  const hono = new Hono()
  hono.get('/a', (c) => c.text('hono GET /a'))
  const { app, calls } = server(hono)
  await request(app).get('/a').expect(200, 'hono GET /a')
  await request(app).post('/a').expect(200, 'express POST /a')
  await request(app).get('/a').expect(200, 'hono GET /a')
  await request(app).post('/a').expect(200, 'express POST /a')
  // No Hono code ran for the POSTs (not even the env option).
  expect(calls).toEqual(['GET /a', 'GET /a'])
})

it('forgets what it remembered when routes are added', async () => {
  const hono = new Hono({ router: new TrieRouter() })
  hono.get('/early', (c) => c.text('early'))
  const { app } = server(hono)
  await request(app).get('/late').expect(200, 'express GET /late')
  hono.get('/late', (c) => c.text('hono late'))
  await request(app).get('/late').expect(200, 'hono late')
})

it('matches a request itself when the match left by the check is for another path', async () => {
  const hono = new Hono()
  hono.get('/b', (c) => c.text('hono b'))
  hono.post('/x', (c) => c.text('hono POST x'))
  const { app } = server(hono)
  await request(app).get('/b').expect(200, 'hono b')
  // A path with a route for another method only: the check matched it for GET and handed it on.
  await request(app).get('/x').expect(200, 'express GET /x')
  // Remembered: no new match by the check, so Hono's dispatch must not take the one for /x.
  await request(app).get('/b').expect(200, 'hono b')
})

it('matches once per request: the dispatch takes the match the check made', async () => {
  const { router, count } = counted(new RegExpRouter<any>())
  const hono = new Hono({ router })
  hono.get('/users/:id', (c) => c.text(`user ${c.req.param('id')}`))
  const { app } = server(hono)
  for (const id of ['1', '2', '3']) {
    const before = count.matches
    await request(app).get(`/users/${id}`).expect(200, `user ${id}`)
    expect(count.matches - before).toBe(1)
  }
  // A target seen before is answered from memory: Hono's own match is the only one.
  const before = count.matches
  await request(app).get('/users/1/none').expect(200, 'express GET /users/1/none')
  const first = count.matches - before
  await request(app).get('/users/1/none').expect(200, 'express GET /users/1/none')
  expect(count.matches - before).toBe(first)
})
