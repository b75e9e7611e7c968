import { Hono } from 'hono'
import request from 'supertest'
import { lightState } from '../../src/response/response.js'

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

/** GET each path and expect 200 with that text body, in order. */
export async function expectTexts(app: Parameters<typeof request>[0], texts: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(texts)) await request(app).get(path).expect(200, text)
}

/**
 * alice logs in (POST /login, password "wonderland"), each path answers 200 (with `body` when
 * given), she logs out (204), and each path answers 401 again.
 */
export async function sessionRoundTrip(agent: ReturnType<typeof request.agent>, paths: Array<[path: string, body?: object]>): Promise<void> {
  await agent.post('/login').send({ username: 'alice', password: 'wonderland' }).expect(200, { id: 'alice', name: 'Alice' })
  for (const [path, body] of paths) await (body === undefined ? agent.get(path).expect(200) : agent.get(path).expect(200, body))
  await agent.post('/logout').expect(204)
  for (const [path] of paths) await agent.get(path).expect(401)
}
