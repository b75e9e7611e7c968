import http, { type ServerResponse } from 'node:http'
import compression from 'compression'
import express from 'express'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { fetchBridge, OriginalResponse, type HttpBindings } from '../../src/index.js'
import { after, listen, sleep, type Running } from '../helpers/transport.js'
import { encoder, failingStream, slowStream, timed } from '../helpers/stream-timing.js'

let server: Running
beforeAll(async () => {
  const hono = new Hono()
  hono.get('/light', () => new Response(slowStream(), { headers: { 'content-type': 'text/event-stream' } }))
  hono.get('/real', () => new OriginalResponse(slowStream(), { headers: { 'content-type': 'text/event-stream' } }))
  hono.get('/late', () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          await sleep(400)
          controller.enqueue(encoder.encode('late'))
          controller.close()
        },
      }),
    ),
  )
  hono.get('/sse', (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ data: 'first' })
      await stream.sleep(400)
      await stream.writeSSE({ data: 'second' })
    }),
  )
  const app = express()
  app.use('/gz', compression(), fetchBridge(hono))
  app.use(fetchBridge(hono))
  server = await listen(app)
  // Warm up (module loading, JIT) so the timings below measure the bridge only.
  await timed(`${server.url}/real`)
})
afterAll(() => server.close())

describe('a stream is delivered as it is produced', () => {
  it.each([
    ['a lightweight Response', '/light'],
    ['a real Response', '/real'],
    ['behind compression()', '/gz/light'],
    ['behind compression(), real Response', '/gz/real'],
    ["Hono's streamSSE", '/sse'],
    ["Hono's streamSSE behind compression()", '/gz/sse'],
  ])('%s: headers and the first chunk arrive within 100 ms, not after 400 ms', async (_name, path) => {
    const t = await timed(`${server.url}${path}`, { 'accept-encoding': 'gzip' })
    if (path.startsWith('/gz')) expect(t.headers['content-encoding']).toBe('gzip')
    expect(t.firstChunk).toBe('data: first\n\n')
    expect(t.all).toBe('data: first\n\ndata: second\n\n')
    expect(t.headersAt).toBeLessThan(100)
    expect(t.firstChunkAt).toBeLessThan(100)
  })
})

it('headers go out at once even when the first chunk comes 400 ms later', async () => {
  const t = await timed(`${server.url}/late`)
  expect(t.headersAt).toBeLessThan(100)
  expect(t.all).toBe('late')
  expect(t.firstChunkAt).toBeGreaterThan(300)
})

describe('backpressure and disconnects', () => {
  it('a slow client does not make the server buffer the stream; its disconnect cancels the reader', async () => {
    const chunk = new Uint8Array(64 * 1024)
    let pulls = 0
    let cancelled!: (reason: unknown) => void
    const cancelledP = new Promise<unknown>((r) => (cancelled = r))
    let outgoing!: ServerResponse
    const s = await listen(
      fetchBridge((_req: Request, env: HttpBindings) => {
        outgoing = env.outgoing
        return new Response(
          new ReadableStream(
            {
              pull(controller) {
                pulls++
                if (pulls > 1024) return controller.close() // 64 MiB at most
                controller.enqueue(chunk)
              },
              cancel: (reason) => cancelled(reason),
            },
            { highWaterMark: 0 },
          ),
        )
      }),
    )
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.request(s.url, { agent: false }, (res) => {
          let bytes = 0
          res.on('data', (c: Buffer) => {
            bytes += c.length
            res.pause() // a slow reader: take one chunk, then stop
            setTimeout(() => {
              resolve(bytes)
              req.destroy()
            }, 300)
          })
        })
        req.on('error', () => {})
        req.on('close', () => undefined)
        req.end()
        setTimeout(() => reject(new Error('no data')), 5000).unref()
      })
      expect(received).toBeGreaterThan(0)
      // Only what fits in the socket buffers was produced, far from the 64 MiB available.
      expect(pulls).toBeLessThan(128)
      expect(await Promise.race([cancelledP.then(() => 'cancelled'), after(3000, 'not cancelled')])).toBe('cancelled')
      await sleep(20)
      // The pump stopped waiting for 'drain' without leaving its listener behind.
      expect(outgoing.listenerCount('drain')).toBe(0)
      expect(outgoing.listenerCount('close')).toBeLessThanOrEqual(1)
    } finally {
      await s.close()
    }
  })

  it('a stream that fails after the headers cuts the response instead of ending it cleanly', async () => {
    const s = await listen(fetchBridge(() => new Response(failingStream('boom'))))
    try {
      const outcome = await new Promise<string>((resolve) => {
        const req = http.request(s.url, { agent: false }, (res) => {
          res.on('data', () => {})
          res.on('end', () => resolve('complete'))
          res.on('error', () => resolve('aborted'))
          res.on('aborted', () => resolve('aborted'))
        })
        req.on('error', () => resolve('aborted'))
        req.end()
      })
      expect(outcome).toBe('aborted')
    } finally {
      await s.close()
    }
  })
})
