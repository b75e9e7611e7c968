import http from 'node:http'
import connect from 'connect'
import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../src/index.js'

// Connect has `originalUrl` but no `baseUrl`: mountPath 'keep' must still give the app the full path.

const hono = new Hono()
hono.get('*', (c) => c.text(new URL(c.req.url).pathname + new URL(c.req.url).search))

function app(mountPath: 'strip' | 'keep') {
  const c = connect()
  c.use('/api', fetchBridge(hono, { mountPath }) as connect.NextHandleFunction)
  c.use(fetchBridge(hono, { mountPath }) as connect.NextHandleFunction)
  return http.createServer(c)
}

it.each([
  ['keep', '/api/users?x=1', '/api/users?x=1'],
  ['keep', '/api?x=1', '/api?x=1'],
  ['keep', '/api', '/api'],
  ['keep', '/api/', '/api/'],
  ['keep', '/other', '/other'],
  ['strip', '/api/users?x=1', '/users?x=1'],
  ['strip', '/api?x=1', '/?x=1'],
] as const)("mountPath %s under connect's use('/api'): %s → the app sees %s", async (mountPath, path, seen) => {
  await request(app(mountPath)).get(path).expect(200, seen)
})
