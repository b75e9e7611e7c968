import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { Response as UndiciResponse } from 'undici'
import { Response as WhatwgResponse } from '@whatwg-node/fetch'
import { fetchBridge } from '../../src/index.js'

/** A Response from another fetch implementation is served like the platform's: status, headers, body. */

type AnyResponseClass = new (body?: any, init?: any) => { headers: { append(name: string, value: string): void } }

const implementations: [string, AnyResponseClass][] = [
  ['undici (npm)', UndiciResponse as unknown as AnyResponseClass],
  ['@whatwg-node/fetch', WhatwgResponse as unknown as AnyResponseClass],
]

describe.each(implementations)('a Response from %s', (_name, Foreign) => {
  const hono = new Hono()
  hono.get('/text', () => {
    const res = new Foreign('foreign body', { status: 201, headers: { 'x-a': '1', 'set-cookie': 'a=1' } })
    res.headers.append('set-cookie', 'b=2')
    return res as unknown as Response
  })
  hono.get('/empty', () => new Foreign(null, { status: 204, headers: { 'x-e': '1' } }) as unknown as Response)
  hono.get('/stream', () => {
    let n = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        if (n++ === 3) controller.close()
        else controller.enqueue(new TextEncoder().encode(`chunk${n};`))
      },
    })
    return new Foreign(body, { headers: { 'content-type': 'text/x-stream' } }) as unknown as Response
  })
  const app = express()
  app.use(fetchBridge(hono))
  app.use((_req, res) => res.status(418).send('fell through'))

  it('serves status, headers (each Set-Cookie on its own line) and body', async () => {
    const res = await request(app).get('/text')
    expect(res.status).toBe(201)
    expect(res.text).toBe('foreign body')
    expect(res.headers['x-a']).toBe('1')
    expect(res.headers['set-cookie']).toEqual(expect.arrayContaining(['a=1', 'b=2']))
    expect(res.headers['set-cookie']).toHaveLength(2)
    expect(res.headers['content-length']).toBe('12')
  })

  it('serves a bodiless one', async () => {
    const res = await request(app).get('/empty')
    expect(res.status).toBe(204)
    expect(res.headers['x-e']).toBe('1')
  })

  it('answers HEAD without the body', async () => {
    const res = await request(app).head('/text')
    expect(res.status).toBe(201)
    expect(res.headers['x-a']).toBe('1')
    expect(res.text).toBeUndefined()
  })

  it('streams a body that is still being produced', async () => {
    const res = await request(app).get('/stream')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/x-stream')
    expect(res.text).toBe('chunk1;chunk2;chunk3;')
  })
})

describe('something that is not a Response', () => {
  it.each([
    ['a plain object', { status: 200 }],
    ['an object whose headers are a plain object', { status: 200, headers: { 'x-a': '1' } }],
    ['a string', 'hello'],
  ])('%s is still an error (500)', async (_name, value) => {
    const app = express()
    app.use(fetchBridge(() => value as unknown as Response))
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).send(err.message)
    })
    const res = await request(app).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/did not return a Response/)
  })
})
