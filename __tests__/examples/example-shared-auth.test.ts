import request from 'supertest'
import { createApp } from '../../examples/shared-auth/app.js'
import { useExample } from '../helpers/run-example.js'
import { sessionRoundTrip } from '../helpers/apps.js'

describe('examples/shared-auth', () => {
  const app = createApp({ secret: 'test-secret' })

  it.each(['/api/profile', '/api/greeting', '/api/orders'])('answers 401 without a user: %s', async (path) => {
    await request(app).get(path).expect(401, { error: 'unauthorized' })
    await request(app).get(path).set('authorization', 'Bearer nope').expect(401, { error: 'unauthorized' })
  })

  it('gives Hono routes the user the Express middleware authenticated (token)', async () => {
    const profile = await request(app).get('/api/profile').set('authorization', 'Bearer bob-token').expect(200)
    expect(profile.body).toEqual({ id: 'bob', name: 'Bob', servedBy: 'hono' })
    await request(app).get('/api/greeting').set('authorization', 'Bearer alice-token').expect(200, 'Hello, Alice')
    const orders = await request(app).get('/api/orders').set('authorization', 'Bearer bob-token').expect(200)
    expect(orders.body).toEqual({ user: 'bob', orders: [], servedBy: 'express' })
  })

  it('shares the express-session login between Express and Hono routes', async () => {
    const agent = request.agent(app)
    await agent.post('/login').send({ username: 'alice', password: 'wrong' }).expect(401)
    await agent.get('/api/profile').expect(401)
    await sessionRoundTrip(agent, [['/api/profile', { id: 'alice', name: 'Alice', servedBy: 'hono' }], ['/api/orders']])
  })

  describe('npm run example:shared-auth', () => {
    const example = useExample('examples/shared-auth/server.ts')

    it('serves the authenticated routes', async () => {
      expect((await fetch(example().url + '/api/profile')).status).toBe(401)
      const res = await fetch(example().url + '/api/profile', { headers: { authorization: 'Bearer alice-token' } })
      expect(await res.json()).toEqual({ id: 'alice', name: 'Alice', servedBy: 'hono' })
    })
  })
})
