import express from 'express'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// blob().type is the MIME type as the platform's Request.blob() gives it (parsed, serialized,
// lower-cased), not the raw Content-Type header.

const app = express()
app.use(
  fetchBridge(async (lazy: Request) => {
    const type = lazy.headers.get('content-type')
    const real = new Request('http://x/', { method: 'POST', body: new Uint8Array([120]), headers: type === null ? {} : { 'content-type': type } })
    const [mine, platform] = await Promise.all([lazy.blob(), real.blob()])
    return Response.json({ lazy: mine.type, real: platform.type, size: mine.size })
  }),
)

describe('blob().type', () => {
  it.each([
    'text/plain',
    'Text/Plain; Charset="UTF-8"',
    'TEXT/HTML;charset=utf-8;foo=bar',
    'application/json ; charset = utf-8',
    'multipart/form-data; boundary=----x',
    'text/plain; a="b;c"',
    'nonsense',
    '',
  ])('Content-Type %p', async (type) => {
    const res = await request(app).post('/').set('content-type', type).send('x')
    expect(res.body.lazy).toBe(res.body.real)
    expect(res.body.size).toBe(1)
  })

  it('no Content-Type gives an empty type', async () => {
    const res = await request(app).post('/').send(Buffer.from('x')).unset('content-type')
    expect(res.body).toEqual({ lazy: '', real: '', size: 1 })
  })
})
