// `req.headers` is a getter on node:http's prototype: the bridge reads it once per request, before it
// adds its own state to the request, and passes the object on (see framesBody in body-read.ts). More
// reads made on more shapes of the request sent the getter's inline cache megamorphic.
import http, { IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fetchBridge } from '../../src/index.js'
import { request } from '../helpers/transport.js'

let reads = 0
const getter = Object.getOwnPropertyDescriptor(IncomingMessage.prototype, 'headers')!.get!
class CountingMessage extends IncomingMessage {}
Object.defineProperty(CountingMessage.prototype, 'headers', {
  get(this: IncomingMessage) {
    reads++
    return getter.call(this)
  },
})

const app = async (r: Request) => {
  const how = new URL(r.url).pathname
  let size = 0
  if (how === '/whole') size = (await r.arrayBuffer()).byteLength
  else if (how === '/stream') {
    const reader = r.body!.getReader()
    for (let c = await reader.read(); !c.done; c = await reader.read()) size += c.value.byteLength
  }
  return new Response(`${r.method} ${size} ${r.headers.get('x-probe')}`)
}

let server: http.Server
let port: number
let seen: number[] = []
beforeAll(async () => {
  const bridge = fetchBridge(app)
  server = http.createServer({ IncomingMessage: CountingMessage }, (req: IncomingMessage, res: ServerResponse) => {
    // Node read the headers before this; count from the bridge's first look to the response's end.
    reads = 0
    res.on('finish', () => seen.push(reads))
    bridge(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen = []
})

const body = Buffer.alloc(100_000, 7)
it.each([
  ['GET', '/none', undefined, 'GET 0 yes'],
  ['POST', '/whole', body, 'POST 100000 yes'],
  ['POST', '/whole', [body.subarray(0, 50_000), body.subarray(50_000)], 'POST 100000 yes'],
  ['POST', '/stream', body, 'POST 100000 yes'],
  ['POST', '/stream', [body.subarray(0, 50_000), body.subarray(50_000)], 'POST 100000 yes'],
  ['POST', '/none', body, 'POST 0 yes'],
])('%s %s (%#): req.headers read once', async (method, path, sent, answer) => {
  const r = await request(`http://127.0.0.1:${port}${path}`, { method, headers: { 'x-probe': 'yes' } }, sent as Buffer)
  expect(r.body.toString()).toBe(answer)
  expect(seen).toEqual([1])
})
