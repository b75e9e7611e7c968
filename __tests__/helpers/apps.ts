import { Hono } from 'hono'
import { lightState } from '../../src/response.js'

/** A Hono app with the usual helpers; records whether each response it returned is on the fast path. */
export function honoApp(upstream?: () => string) {
  const fastPath: Record<string, boolean> = {}
  const hono = new Hono()
  hono.use(async (c, next) => {
    await next()
    fastPath[c.req.path] = lightState(c.res) !== undefined
  })
  hono.get('/text', (c) => c.text('hello'))
  hono.get('/json', (c) => c.json({ ok: true }, 201))
  hono.get('/html', (c) => c.html('<b>hi</b>'))
  hono.get('/header', (c) => {
    c.header('x-set', 'by-hono')
    return c.body('with header')
  })
  hono.get('/stream', () => new Response(new ReadableStream({ start: (ctl) => (ctl.enqueue(new TextEncoder().encode('streamed')), ctl.close()) })))
  hono.get('/fetch', () => fetch(`${upstream!()}/upstream`))
  hono.get('/instance', async () => {
    const upstreamResponse = await fetch(`${upstream!()}/upstream`)
    return Response.json({
      fetched: upstreamResponse instanceof Response,
      constructed: new Response('x') instanceof Response,
    })
  })
  return { hono, fastPath }
}
