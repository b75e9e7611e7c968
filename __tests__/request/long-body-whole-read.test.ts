import { createHash } from 'node:crypto'
import http from 'node:http'
import net from 'node:net'

import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'

import { fetchBridge } from '../../src/index.js'
import { listen, parseHead, raw, request, sleep, waitFor, type Running } from '../helpers/transport.js'

// A long body of known length that nothing keeps for a hand-over (declared over the replay limit, or
// replay off) is copied into one buffer as it arrives (src/request/body-length.ts). Whatever the
// chunking, the sizes around the thresholds, and a Content-Length that earlier middleware rewrote
// (the parser frames the body by the header it read, so the bytes that come may be more or fewer
// than `req.headers` now says), the app gets exactly the bytes the client sent.

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

function hono(): Hono {
  const app = new Hono()
  app.post('/buffer', async (c) => {
    const b = new Uint8Array(await c.req.arrayBuffer())
    return c.json({ length: b.length, sha: sha(b) })
  })
  app.post('/bytes', async (c) => {
    const b = await c.req.raw.bytes()
    return c.json({ length: b.length, sha: sha(b) })
  })
  app.post('/text', async (c) => {
    const t = await c.req.text()
    return c.json({ length: Buffer.byteLength(t), sha: sha(Buffer.from(t)) })
  })
  return app
}

const servers: Running[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
})

async function serve(handler: http.RequestListener | express.Express): Promise<number> {
  const s = await listen(handler)
  servers.push(s)
  return s.port
}

/** POST `body` over a raw socket in the given pieces (a pause between them), then read the JSON answer. */
async function post(
  port: number,
  path: string,
  body: Buffer,
  pieces: number[],
): Promise<{ status: number; json: unknown }> {
  const { data } = await raw(port, (socket) => {
    void (async () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
      let at = 0
      for (const n of pieces) {
        if (at >= body.length) break
        socket.write(body.subarray(at, (at += n)))
        await sleep(1)
      }
      if (at < body.length) socket.write(body.subarray(at))
    })()
  })
  const { status, rest } = parseHead(data)
  return { status, json: JSON.parse(rest.toString()) }
}

function bodyOf(length: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(length)
  let x = seed | 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    b[i] = x & 0x7f // ASCII: text() gives the same bytes back
  }
  return b
}

const KiB = 1024
const sizes = [1, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 200 * KiB, 1024 * KiB + 7]

describe.each([
  ['front door', (replay: number) => serve(fetchBridge(hono(), { replay: { maxBytes: replay } }))],
  [
    'Express',
    (replay: number) => {
      const app = express()
      app.use(fetchBridge(hono(), { replay: { maxBytes: replay } }))
      return serve(app)
    },
  ],
])('%s: a long body read whole', (_name, start) => {
  test('every byte, whatever the size and the chunking (replay off: nothing kept)', async () => {
    const port = await start(0)
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...sizes),
        fc.constantFrom('/buffer', '/bytes', '/text'),
        fc.array(fc.integer({ min: 1, max: 96 * KiB }), { maxLength: 6 }),
        fc.integer(),
        async (size, path, pieces, seed) => {
          const body = bodyOf(size, seed)
          const { status, json } = await post(port, path, body, pieces)
          expect(status).toBe(200)
          expect(json).toEqual({ length: size, sha: sha(body) })
        },
      ),
      { numRuns: 25, seed: 38 },
    )
  })

  test('a body declared over the replay limit', async () => {
    const port = await start(100 * KiB)
    for (const size of [100 * KiB + 1, 600 * KiB]) {
      const body = bodyOf(size, size)
      expect(await post(port, '/buffer', body, [1000, 70 * KiB])).toEqual({
        status: 200,
        json: { length: size, sha: sha(body) },
      })
    }
  })
})

test('a client that declares a long body and sends little reserves no buffer of the declared length', async () => {
  let reading = 0
  const app = new Hono()
  app.post('/buffer', async (c) => {
    reading++
    return c.text(String((await c.req.arrayBuffer()).byteLength))
  })
  const port = await serve(fetchBridge(app, { replay: { maxBytes: 0 } }))
  const sockets: net.Socket[] = []
  const before = process.memoryUsage().arrayBuffers
  try {
    for (let i = 0; i < 20; i++) {
      const socket = net.connect(port, '127.0.0.1')
      socket.on('error', () => {})
      socket.write(`POST /buffer HTTP/1.1\r\nHost: x\r\nContent-Length: ${32 * 1024 * KiB}\r\n\r\n${'x'.repeat(100)}`)
      sockets.push(socket)
    }
    expect(await waitFor(() => reading === 20, 5000)).toBe(true)
    await sleep(50)
    // 20 x 32 MiB would be 640 MiB; what came is 2 KB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * KiB)
  } finally {
    for (const s of sockets) s.destroy()
  }
})

describe('a Content-Length rewritten by middleware before the bridge', () => {
  let port: number
  beforeAll(async () => {
    const app = express()
    app.use((req, _res, next) => {
      const factor = Number(req.headers['x-factor'] ?? 1)
      req.headers['content-length'] = String(Math.round(Number(req.headers['content-length']) * factor))
      next()
    })
    app.use(fetchBridge(hono(), { replay: { maxBytes: 0 } }))
    port = await serve(app)
  })

  test.each([
    ['more bytes come than it says', 0.5],
    ['fewer bytes come than it says', 2],
  ])('%s: the app gets the bytes that came', async (_case, factor) => {
    const body = bodyOf(300 * KiB, 7)
    const { res, body: answer } = await request(
      `http://127.0.0.1:${port}/buffer`,
      { method: 'POST', headers: { 'content-length': body.length, 'x-factor': factor } },
      body,
    )
    expect(res.statusCode).toBe(200)
    expect(JSON.parse(answer.toString())).toEqual({ length: body.length, sha: sha(body) })
  })
})
