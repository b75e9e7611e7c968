import net from 'node:net'
import { Hono } from 'hono'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { after, listen, waitFor, type Running } from '../helpers/transport.js'

// A client that sent its whole body and then went away: the bytes that arrived are data. Every way of
// reading the body gets them; only a body cut short rejects.

type Read = (request: Request) => Promise<unknown>

let read: Read
let report: (value: unknown) => void
let started: () => void
/** Runs before the client leaves. */
let before: ((request: Request) => Promise<void>) | undefined

const hono = new Hono<{ Bindings: HttpBindings }>()
hono.post('*', async (c) => {
  if (before !== undefined) await before(c.req.raw)
  started()
  const reading = (async () => {
    await waitFor(() => c.env.incoming.destroyed, 3000)
    return read(c.req.raw)
  })()
  reading.then(report, (err: Error) => report(`${err.name}: rejected`))
  await reading.catch(() => undefined)
  return c.text('gone anyway')
})

let server: Running
beforeAll(async () => {
  server = await listen(fetchBridge(hono))
})
afterAll(() => server.close())

async function readAfterDisconnect(type: string, body: Buffer, how: Read, declared = body.length, prelude?: typeof before): Promise<unknown> {
  read = how
  before = prelude
  const result = new Promise((resolve) => (report = resolve))
  const running = new Promise<void>((resolve) => (started = resolve))
  const socket = net.connect(server.port, '127.0.0.1')
  socket.on('error', () => undefined)
  socket.write(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${declared}\r\n\r\n`)
  socket.write(body)
  await running
  // Give the body time to arrive, then leave.
  await new Promise((resolve) => setTimeout(resolve, 50))
  socket.destroy()
  return Promise.race([result, after(4000, 'never settled')])
}

async function streamText(request: Request): Promise<string> {
  const reader = request.body!.getReader()
  const chunks: Uint8Array[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return Buffer.concat(chunks).toString()
    chunks.push(value)
  }
}

describe('a complete body from a client that disconnected', () => {
  const text = Buffer.from('every byte arrived')

  it('text()', async () => {
    expect(await readAfterDisconnect('text/plain', text, (r) => r.text())).toBe('every byte arrived')
  })

  it('json()', async () => {
    expect(await readAfterDisconnect('application/json', Buffer.from('{"a":[1,2]}'), (r) => r.json())).toEqual({ a: [1, 2] })
  })

  it('arrayBuffer()', async () => {
    const value = await readAfterDisconnect('application/octet-stream', text, async (r) => Buffer.from(await r.arrayBuffer()).toString())
    expect(value).toBe('every byte arrived')
  })

  it('formData()', async () => {
    const value = await readAfterDisconnect('application/x-www-form-urlencoded', Buffer.from('a=1&b=2'), async (r) => [...(await r.formData())])
    expect(value).toEqual([['a', '1'], ['b', '2']])
  })

  it('the body stream', async () => {
    expect(await readAfterDisconnect('text/plain', text, streamText)).toBe('every byte arrived')
  })

  it('the body stream, after the getter was touched before the disconnect', async () => {
    const big = Buffer.alloc(40 * 1024, 'b')
    const touch = async (r: Request) => void r.body
    expect(await readAfterDisconnect('application/octet-stream', big, async (r) => (await streamText(r)).length, big.length, touch)).toBe(big.length)
  })

  it.each([100, 200])('the body stream, read in part before the disconnect and paused (%i KiB)', async (kib) => {
    // The app stops reading after the first chunk: the stream fills, the request is paused, and the
    // socket closes after the body is complete but before 'end' could be emitted (nobody read on).
    const big = Buffer.alloc(kib * 1024, 'c')
    let reader!: ReadableStreamDefaultReader<Uint8Array>
    let first = 0
    const readFirst = async (r: Request) => {
      reader = r.body!.getReader()
      first = (await reader.read()).value!.byteLength
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const readRest = async () => {
      let n = first
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return n
        n += value.byteLength
      }
    }
    expect(await readAfterDisconnect('application/octet-stream', big, readRest, big.length, readFirst)).toBe(big.length)
  })
})

describe('a body cut short', () => {
  it('still rejects with an AbortError', async () => {
    expect(await readAfterDisconnect('text/plain', Buffer.from('half'), (r) => r.text(), 100)).toBe('AbortError: rejected')
  })
})
