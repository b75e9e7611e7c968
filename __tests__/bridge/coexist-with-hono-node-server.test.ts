import http from 'node:http'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { getRequestListener } from '@hono/node-server'
import { fetchBridge } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

// A migration step or a test suite may run the bridge and @hono/node-server in one process. Both
// replace globalThis.Request so that `new Request(c.req.raw)` works with their lazy requests; each
// must keep working whichever replaced it last.

function app(): Hono {
  const hono = new Hono()
  // bodyLimit re-wraps c.req.raw in a new Request when the upload has no Content-Length.
  hono.post('/up', bodyLimit({ maxSize: 100 }), async (c) => c.text(`got ${(await c.req.text()).length}`))
  hono.post('/rewrap', async (c) => c.text(await new Request(c.req.raw).text()))
  return hono
}

async function chunked(server: Running, path: string, body: string): Promise<string> {
  const { res, body: bytes } = await request(`${server.url}${path}`, { method: 'POST' }, [body.slice(0, 5), body.slice(5)])
  return `${res.statusCode} ${bytes.toString()}`
}

async function bothWork(bridge: Running, peer: Running): Promise<void> {
  for (const server of [bridge, peer, bridge]) {
    expect(await chunked(server, '/up', 'x'.repeat(60))).toBe('200 got 60')
    expect(await chunked(server, '/up', 'x'.repeat(200))).toMatch(/^413 /)
    expect(await chunked(server, '/rewrap', 'hello world')).toBe('200 hello world')
  }
}

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()))
})

async function start(listener: http.RequestListener): Promise<Running> {
  const server = await listen(listener)
  running.push(server)
  return server
}

it('the bridge serves first, then @hono/node-server replaces the globals: both re-wrap requests', async () => {
  const bridge = await start(fetchBridge(app()) as http.RequestListener)
  expect(await chunked(bridge, '/rewrap', 'before')).toBe('200 before')
  const peer = await start(getRequestListener(app().fetch))
  await bothWork(bridge, peer)
})

it('@hono/node-server is created first, then the bridge serves: both re-wrap requests', async () => {
  const peer = await start(getRequestListener(app().fetch))
  expect(await chunked(peer, '/rewrap', 'before')).toBe('200 before')
  const bridge = await start(fetchBridge(app()) as http.RequestListener)
  await bothWork(bridge, peer)
})
