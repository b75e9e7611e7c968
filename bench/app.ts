import type { IncomingMessage, ServerResponse } from 'node:http'
import { Hono } from 'hono'

/**
 * The workload every mode serves. Fetch modes share one Hono app; the Express floor and the raw
 * node:http ceiling answer the same routes with hand-written writeHead + end.
 */

/** One 1 KiB chunk of the /stream body; the same bytes for every mode. */
export const CHUNK = Buffer.alloc(1024, 'x')
export const STREAM_CHUNKS = 16
export const JSON_BODY = { hello: 'world', n: 42, list: [1, 2, 3] }
/** What wrk (bench/post.lua) and the correctness check POST to /echo. */
export const ECHO_BODY = '{"hello":"world","n":[1,2,3],"nested":{"ok":true}}'

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
  return app
}

const FOO = Buffer.from('foo')
const JSON_TEXT = JSON.stringify(JSON_BODY)

/** The most any handler can do: writeHead + end, no framework. Used by the floor and the ceiling. */
export function rawHandler(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/':
      res.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8', 'x-foo': 'bar', 'content-length': 3 })
      res.end(FOO)
      return
    case '/uint8array':
    case '/blob':
      res.writeHead(200, { 'content-length': 3 })
      res.end(FOO)
      return
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(JSON_TEXT) })
      res.end(JSON_TEXT)
      return
    case '/echo': {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const out = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) })
        res.end(out)
      })
      return
    }
    case '/stream':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      for (let i = 0; i < STREAM_CHUNKS; i++) res.write(CHUNK)
      res.end()
      return
    default:
      res.writeHead(404, { 'content-length': 0 })
      res.end()
  }
}
