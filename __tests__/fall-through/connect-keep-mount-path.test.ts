import http from 'node:http'
import connect from 'connect'
import request from 'supertest'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'

// Connect has `originalUrl` but no `baseUrl`: mountPath 'keep' must still give the app the full path.

const hono = new Hono()
hono.get('*', (c) => c.text(new URL(c.req.url).pathname + new URL(c.req.url).search))

function app(mountPath: 'strip' | 'keep') {
  const c = connect()
  c.use('/api', fetchBridge(hono, { mountPath }) as connect.NextHandleFunction)
  c.use(fetchBridge(hono, { mountPath }) as connect.NextHandleFunction)
  return http.createServer(c)
}

it.each(['/api/users?x=1', '/api?x=1', '/api', '/api/', '/other'])("mountPath keep under connect's use('/api'): %s reaches the app unchanged", async (path) => {
  await request(app('keep')).get(path).expect(200, path)
})

it.each([
  ['/api/users?x=1', '/users?x=1'],
  ['/api?x=1', '/?x=1'],
])("mountPath strip under connect's use('/api'): %s → the app sees %s", async (path, seen) => {
  await request(app('strip')).get(path).expect(200, seen)
})
