import request from 'supertest'
import { createApp } from '../examples/finish-migration/app.js'
import { useExample } from './helpers/run-example.js'

describe('examples/finish-migration', () => {
  const app = createApp({ secret: 'test-secret' })

  it('answers 401 before login, on Hono and on the legacy routes', async () => {
    await request(app).get('/api/me').expect(401, { error: 'unauthorized' })
    await request(app).get('/legacy/report').expect(401, { error: 'unauthorized' })
    await request(app).post('/login').send({ username: 'alice', password: 'wrong' }).expect(401)
  })

  it('logs in through passport in Hono; Hono and the legacy Express routes share the user; logout ends it', async () => {
    const agent = request.agent(app)
    await agent.post('/login').send({ username: 'alice', password: 'wonderland' }).expect(200, { id: 'alice', name: 'Alice' })
    await agent.get('/api/me').expect(200, { id: 'alice', name: 'Alice', servedBy: 'hono' })
    await agent.get('/legacy/report').expect(200, { report: 'numbers for Alice', servedBy: 'express' })
    await agent.post('/logout').expect(204)
    await agent.get('/api/me').expect(401)
    await agent.get('/legacy/report').expect(401)
  })

  describe('npm run example:finish-migration', () => {
    const example = useExample('examples/finish-migration/server.ts')

    it('serves the Hono and the legacy routes', async () => {
      expect((await fetch(example().url + '/api/me')).status).toBe(401)
      const login = await fetch(example().url + '/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'wonderland' }),
      })
      const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
      expect(await (await fetch(example().url + '/legacy/report', { headers: { cookie } })).json()).toEqual({ report: 'numbers for Alice', servedBy: 'express' })
    })
  })
})
