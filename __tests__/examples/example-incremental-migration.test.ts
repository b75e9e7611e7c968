import request from 'supertest'
import { createApp } from '../../examples/incremental-migration/app.js'
import { createDb } from '../../examples/incremental-migration/db.js'
import { useExample } from '../helpers/run-example.js'

describe('examples/incremental-migration', () => {
  it('serves moved routes from Hono', async () => {
    const res = await request(createApp()).get('/users').expect(200).expect('x-served-by', 'hono')
    expect(res.body).toHaveLength(2)
    await request(createApp()).get('/users/2').expect(200).expect('x-served-by', 'hono')
  })

  it('lets the rest fall through to the Express routes', async () => {
    const app = createApp()
    await request(app).get('/orders').expect(200).expect('x-served-by', 'express')
    const res = await request(app).post('/contact').type('form').send({ name: 'Ada', message: 'hi' }).expect(200)
    expect(res.body).toEqual({ thanks: 'Ada', message: 'hi' })
    await request(app).get('/users/1/orders').expect(200, { user: 1, orders: [] })
    await request(app).get('/nowhere').expect(404)
  })

  it('hands bodies express.json() and express.urlencoded() already read to Hono', async () => {
    const db = createDb()
    const app = createApp(db)
    const created = await request(app).post('/users').send({ name: 'Grace', email: 'grace@example.com' }).expect(201)
    expect(created.body).toEqual({ id: 3, name: 'Grace', email: 'grace@example.com' })
    expect(created.headers['x-served-by']).toBe('hono')
    await request(app).post('/newsletter').type('form').send({ email: 'a@example.com' }).expect(200, { subscribed: 'a@example.com' })
    expect(db.subscribers).toEqual(['a@example.com'])
  })

  it('formats errors from both sides with the one Express error handler', async () => {
    const app = createApp()
    await request(app).get('/users/99').expect(404, { error: 'user not found' })
    await request(app).post('/users').send({ name: 'no email' }).expect(400, { error: 'name and email are required' })
    await request(app).get('/reports/1').expect(403, { error: 'report 1 is restricted' })
    await request(app).get('/users/99/orders').expect(404, { error: 'user not found' })
    // A body express.json() rejects never reaches Hono; the same handler answers.
    await request(app).post('/users').set('content-type', 'application/json').send('{oops').expect(400)
  })

  describe('npm run example:incremental-migration', () => {
    const example = useExample('examples/incremental-migration/server.ts')

    it('answers from both sides', async () => {
      const users = await fetch(example().url + '/users')
      expect(users.headers.get('x-served-by')).toBe('hono')
      const orders = await fetch(example().url + '/orders')
      expect(orders.headers.get('x-served-by')).toBe('express')
      expect(await orders.json()).toEqual([{ id: 100, userId: 1, total: 42 }])
    })
  })
})
