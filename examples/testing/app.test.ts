// Testing Hono handlers the way Express apps are tested: supertest against the Express app, no port
// to manage. Run with `npm run example:testing` (the main test suite runs it too).
import request from 'supertest'
import { createApp, createHono, memoryStore } from './app.js'

describe('todos API (Hono routes inside Express)', () => {
  it('lists todos', async () => {
    const app = createApp(memoryStore(['write tests']))
    const res = await request(app).get('/todos').expect(200).expect('content-type', /application\/json/)
    expect(res.body).toEqual([{ id: 1, title: 'write tests', done: false }])
  })

  it('creates a todo from a JSON body', async () => {
    const store = memoryStore()
    const res = await request(createApp(store)).post('/todos').send({ title: ' ship it ' }).expect(201)
    expect(res.body).toEqual({ id: 1, title: 'ship it', done: false })
    expect(store.list()).toHaveLength(1)
  })

  it('rejects a todo without a title', async () => {
    const res = await request(createApp()).post('/todos').send({}).expect(400)
    expect(res.body).toEqual({ error: 'title is required' })
  })

  it('rejects a body that is not JSON', async () => {
    await request(createApp()).post('/todos').set('content-type', 'application/json').send('{oops').expect(400)
  })

  it('keeps headers set by Express middleware in front of the Hono routes', async () => {
    await request(createApp()).get('/todos').expect('x-api-version', '2')
  })

  it('serves Express routes and Hono routes from one app', async () => {
    const app = createApp()
    await request(app).get('/health').expect(200, { ok: true })
    await request(app).get('/todos').expect(200, [])
  })

  // The Hono app alone can be tested with Hono's own helper; going through Express as above also
  // covers the middleware, body parsing and routing users actually hit.
  it('also works without Express, through hono.request()', async () => {
    const res = await createHono(memoryStore(['a'])).request('/todos')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([{ id: 1, title: 'a', done: false }])
  })
})
