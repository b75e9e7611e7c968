import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, parseHead, raw, sleep, type Running } from '../helpers/transport.js'

// Middleware before the bridge may pause the request (`req.pause()`: a parser that stopped to wait,
// a proxy's backpressure) and leave it paused. Reading the body must not depend on that: a 'data'
// listener does not resume a stream that was paused explicitly, so the bridge never relies on it.

const hono = new Hono()
hono.post('/text', async (c) => c.text(`text ${await c.req.text()}`))
hono.post('/stream', async (c) => {
  const reader = c.req.raw.body!.getReader()
  let got = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    got += Buffer.from(value).toString()
  }
  return c.text(`stream ${got}`)
})

let server: Running
beforeAll(async () => {
  const app = express()
  app.use((req, _res, next) => {
    req.pause()
    next()
  })
  app.use(fetchBridge(hono))
  server = await listen(app)
})
afterAll(() => server.close())

/** A POST whose body comes in two parts, the first with the head or after it. */
async function post(path: string, withHead: boolean): Promise<{ status: number; body: string }> {
  const body = ['hello ', 'world']
  const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.join('').length}\r\nConnection: close\r\n\r\n`
  const { data } = await raw(
    server.port,
    async (socket) => {
      socket.write(withHead ? head + body[0] : head)
      await sleep(30)
      if (!withHead) socket.write(body[0])
      await sleep(30)
      socket.write(body[1])
    },
    undefined,
    3000,
  )
  const { status, rest } = parseHead(data)
  return { status, body: rest.toString() }
}

describe.each([
  ['the body after the head', false],
  ['the body begun with the head', true],
])('a request paused by earlier middleware, %s', (_name, withHead) => {
  it('is read whole by text()', async () => {
    expect(await post('/text', withHead)).toEqual({ status: 200, body: 'text hello world' })
  })
  it('is read whole as a stream', async () => {
    expect(await post('/stream', withHead)).toEqual({ status: 200, body: 'stream hello world' })
  })
})
