import { get, type IncomingMessage } from 'node:http'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import { ALL_HOSTS, host, type Hosted } from '../helpers/hono-hosts.js'
import { request } from '../helpers/transport.js'

// From Node 22, `res.cork()` buffers in the response itself: a write past its high-water mark
// returns false although the socket takes every byte on uncork, so no 'drain' ever follows. A pump
// that corked the response and waited for 'drain' hung on any stream past ~1 MiB (2 MiB on Node 24).
// Each body is 64 chunks of 64 KiB, produced as fast as they are asked for, each chunk numbered.

const CHUNK = 64 * 1024
const COUNT = 64

function chunk(i: number): Uint8Array {
  return new Uint8Array(CHUNK).fill(i & 0xff)
}

const hono = new Hono()
hono.get('/pull', () => {
  let i = 0
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i === COUNT) return controller.close()
        controller.enqueue(chunk(i++))
      },
    }),
  )
})
hono.get('/hono-stream', (c) =>
  stream(c, async (s) => {
    for (let i = 0; i < COUNT; i++) await s.write(chunk(i))
  }),
)

function expectWhole(body: Buffer): void {
  expect(body.length).toBe(CHUNK * COUNT)
  for (let i = 0; i < COUNT; i++) {
    const at = i * CHUNK
    expect([body[at], body[at + CHUNK - 1]]).toEqual([i & 0xff, i & 0xff])
  }
}

describe.each(ALL_HOSTS.filter((name) => name !== '@hono/node-server serve'))('4 MiB streams on %s', (name) => {
  let hosted: Hosted
  beforeAll(async () => {
    hosted = await host(name, hono)
  })
  afterAll(() => hosted.close())

  it.each(['/pull', '/hono-stream'])('%s arrives whole', async (path) => {
    const { res, body } = await request(hosted.url + path, { signal: AbortSignal.timeout(8000) })
    expect(res.statusCode).toBe(200)
    expectWhole(body)
  })
})

it('a 4 MiB stream through the bridge under Express completes when the client reads slowly', async () => {
  const hosted = await host('middleware mode', hono)
  try {
    const { res, body } = await new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
      get(hosted.url + '/pull', { signal: AbortSignal.timeout(8000) }, (res) => {
        const parts: Buffer[] = []
        res.on('data', (c: Buffer) => {
          parts.push(c)
          res.pause()
          setTimeout(() => res.resume(), 1)
        })
        res.on('end', () => resolve({ res, body: Buffer.concat(parts) }))
        res.on('error', reject)
      }).on('error', reject)
    })
    expect(res.statusCode).toBe(200)
    expectWhole(body)
  } finally {
    await hosted.close()
  }
})

