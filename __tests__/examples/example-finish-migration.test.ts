import request from 'supertest'
import { createApp } from '../../examples/finish-migration/app.js'
import { useExample } from '../helpers/run-example.js'
import { sessionRoundTrip } from '../helpers/apps.js'

describe('examples/finish-migration', () => {
  const app = createApp({ secret: 'test-secret' })

  it('answers 401 before login, on Hono and on the legacy routes', async () => {
    await request(app).get('/api/me').expect(401, { error: 'unauthorized' })
    await request(app).get('/legacy/report').expect(401, { error: 'unauthorized' })
    await request(app).post('/login').send({ username: 'alice', password: 'wrong' }).expect(401)
  })

  it('logs in through passport in Hono; Hono and the legacy Express routes share the user; logout ends it', async () => {
    const agent = request.agent(app)
    await sessionRoundTrip(agent, [
      ['/api/me', { id: 'alice', name: 'Alice', servedBy: 'hono' }],
      ['/legacy/report', { report: 'numbers for Alice', servedBy: 'express' }],
    ])
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
