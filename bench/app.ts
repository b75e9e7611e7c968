import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { etag } from 'hono/etag'
import { secureHeaders } from 'hono/secure-headers'
import { streamSSE } from 'hono/streaming'
import { CHUNK, DOWNLOAD_CHUNK, DOWNLOAD_FIXED, DOWNLOAD_STREAM_BYTES, ECHO_BODY, JSON_BODY, STREAM_CHUNKS } from './workload.js'

/**
 * The Hono app every Fetch mode serves (bridge, @hono/node-server). The floors answer the same routes
 * natively (bench/native.ts). Only this file imports Hono, so the floors' processes never load it.
 */
export { CHUNK, ECHO_BODY, JSON_BODY, STREAM_CHUNKS }

export function createHono(): Hono {
  const app = new Hono()
  // The seed's three routes (@hono/node-server's response-cache PR).
  app.get('/', () => {
    const res = new Response('foo')
    res.headers.set('x-foo', 'bar')
    return res
  })
  app.get('/uint8array', () => new Response(new Uint8Array([102, 111, 111])))
  app.get('/blob', () => new Response(new Blob([new Uint8Array([102, 111, 111])])))
  app.get('/json', (c) => c.json(JSON_BODY))
  app.post('/echo', async (c) => c.json(await c.req.json()))
  app.get('/stream', () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < STREAM_CHUNKS; i++) controller.enqueue(CHUNK)
        controller.close()
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
  })
  // The everyday app: the JSON route behind the two most common Hono middlewares.
  app.use('/mw', cors(), secureHeaders())
  app.get('/mw', (c) => c.json(JSON_BODY))
  // A fixed body the middleware reads (a clone) to hash: hono/etag.
  app.use('/etag', etag())
  app.get('/etag', (c) => c.json(JSON_BODY))
  // Bulk bodies (bench/modes.ts): an upload read whole, one streamed through the Request's body, a
  // 64 MiB download produced chunk by chunk as the client takes it, and a 16 MiB fixed body.
  app.post('/upload/:size', async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }))
  app.post('/upload-stream/:size', async (c) => {
    const reader = c.req.raw.body!.getReader()
    let bytes = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
    }
    return c.json({ bytes })
  })
  app.get('/download/stream', () => {
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === DOWNLOAD_STREAM_BYTES) return controller.close()
        controller.enqueue(DOWNLOAD_CHUNK)
        sent += DOWNLOAD_CHUNK.byteLength
      },
    })
    return new Response(body, { headers: { 'content-type': 'application/octet-stream' } })
  })
  app.get('/download/fixed', () => new Response(DOWNLOAD_FIXED, { headers: { 'content-type': 'application/octet-stream' } }))
  // bench/sse-latency.ts: one event a second carrying the wall-clock time of the app's write.
  app.get('/sse', (c) =>
    streamSSE(c, async (stream) => {
      let open = true
      stream.onAbort(() => {
        open = false
      })
      // Spread the connections' ticks over the second instead of firing them all at once.
      await stream.sleep(Math.random() * 1000)
      while (open) {
        await stream.writeSSE({ data: String(performance.timeOrigin + performance.now()) })
        await stream.sleep(1000)
      }
    }),
  )
  return app
}

/**
 * A migrating app (bench/legacy-tax.ts): `routes` API routes with a parameter, and `middleware` of
 * cors() and secureHeaders() registered for every path, as many apps start.
 */
export function createMigratingHono(routes: number, middleware: number): Hono {
  const hono = new Hono()
  for (const mw of [cors(), secureHeaders()].slice(0, middleware)) hono.use(mw)
  for (let i = 0; i < routes; i++) hono.get(`/api/v1/resource${i}/:id`, (c) => c.json({ i, id: c.req.param('id') }))
  return hono
}
