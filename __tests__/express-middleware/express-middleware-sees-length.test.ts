import compression from 'compression'
import morgan from 'morgan'
import { Hono } from 'hono'
import { expressMiddleware } from '../../src/index.js'
import { ALL_HOSTS, host, type Hosted } from '../helpers/hono-hosts.js'
import { request } from '../helpers/transport.js'

// Middleware that decides when the head is written (compression's 1 KiB threshold, through
// on-headers) or logs the length after (morgan) sees a fixed Hono body's Content-Length on every
// host: @hono/node-server's serve gives that length to Node internally, not as a header.

const SMALL = 'small one'
const LARGE = 'x'.repeat(4096)

describe.each(ALL_HOSTS)('on %s', (name) => {
  const logged: string[] = []
  let hosted: Hosted
  beforeAll(async () => {
    const hono = new Hono()
    hono.use(
      expressMiddleware(
        { app: false },
        morgan(':url :res[content-length]', { stream: { write: (line: string) => void logged.push(line.trim()) } }),
        compression(),
      ),
    )
    hono.get('/small', (c) => c.text(SMALL))
    hono.get('/large', (c) => c.text(LARGE))
    hosted = await host(name, hono)
  })
  afterAll(() => hosted.close())

  it('a body below the threshold goes out as it is, with its length, and morgan logs that length', async () => {
    const { res, body } = await request(hosted.url + '/small', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe(String(SMALL.length))
    expect(body.toString()).toBe(SMALL)
    expect(logged).toContain(`/small ${SMALL.length}`)
  })

  it('a body above it is still compressed', async () => {
    const { res } = await request(hosted.url + '/large', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBe('gzip')
  })
})
