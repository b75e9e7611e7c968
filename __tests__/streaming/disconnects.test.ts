import type http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { raw, listen, sleep, waitFor, type Running } from '../helpers/transport.js'

// Clients that go away: mid-download the producer must stop and request.signal must fire; mid-upload
// the app's body read must reject (not hang), and the server must keep serving.

interface Seen {
  cancelledAt?: number
  abortedAt?: number
  readError?: unknown
  readDone?: boolean
}
let seen: Seen = {}

function endless(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(16 * 1024).fill(120)
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await sleep(1)
      controller.enqueue(chunk)
    },
    cancel() {
      seen.cancelledAt = Date.now()
    },
  })
}

function silent(): ReadableStream<Uint8Array> {
  // A long-poll: headers go out, then nothing until the client leaves.
  return new ReadableStream<Uint8Array>({
    cancel() {
      seen.cancelledAt = Date.now()
    },
  })
}

function watch(signal: AbortSignal): void {
  signal.addEventListener('abort', () => (seen.abortedAt = Date.now()), { once: true })
}

const hono = new Hono()
hono.get('/download', (c) => {
  watch(c.req.raw.signal)
  return c.body(endless())
})
hono.get('/long-poll', (c) => {
  watch(c.req.raw.signal)
  return c.body(silent())
})
hono.get('/slow', async (c) => {
  // The app is still working when the client leaves; it can see that through the signal.
  const signal = c.req.raw.signal
  watch(signal)
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
  return c.text('too late')
})
const readers: Record<string, (req: Request) => Promise<unknown>> = {
  text: (req) => req.text(),
  json: (req) => req.json(),
  arrayBuffer: (req) => req.arrayBuffer(),
  stream: async (req) => {
    const reader = req.body!.getReader()
    for (;;) if ((await reader.read()).done) return
  },
  formData: (req) => req.formData(),
}
/** Read the body the `how` way and record how that went. */
async function readAndRecord(how: string, req: Request) {
  try {
    await readers[how](req)
    seen.readDone = true
  } catch (err) {
    seen.readError = err
  }
}
hono.post('/upload/:how', async (c) => {
  await readAndRecord(c.req.param('how'), c.req.raw)
  return c.text('read')
})
hono.post('/upload-late/:how', async (c) => {
  // The app reads the body only after the client has gone (e.g. after a slow auth check).
  const signal = c.req.raw.signal
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
  await readAndRecord(c.req.param('how'), c.req.raw)
  return c.text('read')
})
hono.get('/slow-stream', async (c) => {
  // The client leaves before the app returns its stream: the producer must still be stopped.
  const signal = c.req.raw.signal
  watch(signal)
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
  return c.body(endless())
})
hono.get('/after', (c) => c.text('after'))

const servers: Array<[string, () => http.RequestListener]> = [
  ['node:http', () => { const b = fetchBridge(hono); return (req, res) => b(req, res) }],
  ['Express', () => { const app = express(); app.use(fetchBridge(hono)); return app as unknown as http.RequestListener }],
]

describe.each(servers)('under %s', (_name, make) => {
  let server: Running
  beforeAll(async () => {
    server = await listen(make())
  })
  beforeEach(() => {
    seen = {}
  })
  afterAll(() => server.close())

  async function stillServing() {
    const res = await fetch(`http://127.0.0.1:${server.port}/after`)
    expect(await res.text()).toBe('after')
  }

  it.each(['/download', '/long-poll'])('client leaves %s: the stream is cancelled and request.signal aborts within 1 s', async (path) => {
    let leftAt = 0
    const result = await raw(server.port, `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`, (data) => {
      if (data.includes('\r\n\r\n') && (path === '/long-poll' || data.length > 64 * 1024)) {
        leftAt = Date.now()
        return true
      }
      return false
    })
    expect(result.data.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(await waitFor(() => seen.cancelledAt !== undefined && seen.abortedAt !== undefined, 3000)).toBe(true)
    expect(seen.cancelledAt! - leftAt).toBeLessThan(1000)
    expect(seen.abortedAt! - leftAt).toBeLessThan(1000)
    await stillServing()
  })

  /** Send `GET path` and close the socket 50 ms later, before any answer; resolves with when it left. */
  async function leaveAfterSending(path: string): Promise<number> {
    let leftAt = 0
    await raw(server.port, (socket) => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`)
      setTimeout(() => {
        leftAt = Date.now()
        socket.destroy()
      }, 50)
    })
    return leftAt
  }

  it('client leaves before the app answered: request.signal aborts, the late answer is dropped quietly', async () => {
    const leftAt = await leaveAfterSending('/slow')
    expect(await waitFor(() => seen.abortedAt !== undefined, 3000)).toBe(true)
    expect(seen.abortedAt! - leftAt).toBeLessThan(1000)
    await stillServing()
  })

  it('client leaves before the app returned its stream: the stream is cancelled', async () => {
    const leftAt = await leaveAfterSending('/slow-stream')
    expect(await waitFor(() => seen.cancelledAt !== undefined, 3000)).toBe(true)
    expect(seen.cancelledAt! - leftAt).toBeLessThan(1000)
    await stillServing()
  })

  // A small part of the body fits in Node's buffers, so the socket keeps being read and the disconnect is seen.
  it.each(Object.keys(readers))('client left mid-upload before the app read the body: %s() rejects, no hang', async (how) => {
    const type = how === 'formData' ? 'application/x-www-form-urlencoded' : 'application/json'
    await raw(server.port, (socket) => {
      socket.write(`POST /upload-late/${how} HTTP/1.1\r\nHost: test\r\nContent-Type: ${type}\r\nContent-Length: ${1024 * 1024}\r\n\r\n`)
      socket.write(Buffer.alloc(8 * 1024, 97))
      setTimeout(() => socket.destroy(), 100)
    })
    expect(await waitFor(() => seen.readError !== undefined || seen.readDone === true, 3000)).toBe(true)
    expect(seen.readDone).toBeUndefined()
    expect((seen.readError as Error).message).toMatch(/aborted|closed the connection/)
    await stillServing()
  })

  it.each(Object.keys(readers))('client leaves mid-upload: the app’s %s() rejects and the server stays healthy', async (how) => {
    const type = how === 'formData' ? 'application/x-www-form-urlencoded' : 'application/json'
    await raw(server.port, (socket) => {
      socket.write(`POST /upload/${how} HTTP/1.1\r\nHost: test\r\nContent-Type: ${type}\r\nContent-Length: ${1024 * 1024}\r\n\r\n`)
      socket.write(Buffer.alloc(64 * 1024, 97))
      setTimeout(() => socket.destroy(), 100)
    })
    expect(await waitFor(() => seen.readError !== undefined || seen.readDone === true, 3000)).toBe(true)
    expect(seen.readDone).toBeUndefined()
    // Node's own 'aborted' (ECONNRESET) error, or the bridge's AbortError if the socket closed first.
    expect(Object.prototype.toString.call(seen.readError)).toMatch(/^\[object (Error|DOMException)\]$/)
    expect((seen.readError as Error).message).toMatch(/aborted|closed the connection/)
    await stillServing()
  })
})
