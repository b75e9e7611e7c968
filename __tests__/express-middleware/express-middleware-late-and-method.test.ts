import methodOverride from 'method-override'
import timeout from 'connect-timeout'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { expressMiddleware } from '../../src/index.js'
import { ALL_HOSTS, host, type Hosted } from '../helpers/hono-hosts.js'
import { request, sleep } from '../helpers/transport.js'

// Two ways Express middleware acts after handing on, inside Hono as in Express:
// - connect-timeout calls next() at once and next(err) (503) from a timer: while the Hono route is
//   still working, that error reaches onError and its answer wins, as Express answers 503.
// - method-override changes req.method, but Hono chose the route before: refused loudly, naming
//   Hono's own methodOverride({ app }).

function app(): Hono<any> {
  const hono = new Hono<any>()
  hono.use('/slow', expressMiddleware(timeout('100ms')))
  hono.get('/slow', async (c) => {
    await sleep(400)
    return c.text('too late')
  })
  hono.get('/quick', expressMiddleware(timeout('2s')), (c) => c.text('in time'))
  hono.use('/items/*', expressMiddleware(methodOverride('X-HTTP-Method-Override')))
  hono.post('/items/:id', (c) => c.text(`post ${c.req.param('id')}`))
  hono.delete('/items/:id', (c) => c.text(`delete ${c.req.param('id')}`))
  hono.onError((err, c) => {
    if (err instanceof HTTPException) return err.getResponse()
    const status = (err as { status?: number }).status ?? 500
    return c.text(`${status}: ${err.message}`, status as 500)
  })
  return hono
}

describe.each(ALL_HOSTS)('on %s', (name) => {
  let hosted: Hosted
  beforeAll(async () => {
    hosted = await host(name, app())
  })
  afterAll(() => hosted.close())

  it("connect-timeout's late 503 wins over a route still working", async () => {
    const { res, body } = await request(hosted.url + '/slow')
    expect([res.statusCode, body.toString()]).toEqual([503, '503: Response timeout'])
  })

  it('a route that answers in time is not touched by the timer', async () => {
    const { res, body } = await request(hosted.url + '/quick')
    expect([res.statusCode, body.toString()]).toEqual([200, 'in time'])
  })

  it('method-override that would re-route is refused with a message naming hono/method-override', async () => {
    const { res, body } = await request(hosted.url + '/items/7', { method: 'POST', headers: { 'x-http-method-override': 'DELETE' } }, '')
    expect(res.statusCode).toBe(500)
    expect(body.toString()).toMatch(/from POST to DELETE.*methodOverride\(\{ app \}\).*hono\/method-override/)
  })

  it('without an override the route runs as usual', async () => {
    const { res, body } = await request(hosted.url + '/items/7', { method: 'POST' }, '')
    expect([res.statusCode, body.toString()]).toEqual([200, 'post 7'])
  })
})
