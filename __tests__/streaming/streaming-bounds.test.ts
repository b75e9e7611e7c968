import http from 'node:http'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, sleep, type Running } from '../helpers/transport.js'

// Correctness side of the memory figures (bench/memory.ts measures RSS): a stream passes through the
// bridge at the pace of the slower side instead of being buffered whole. Bounds are generous: socket
// buffers on loopback can hold several MiB.

const MiB = 1024 * 1024
const TOTAL = 128 * MiB
const SLACK = 32 * MiB

let produced = 0
let uploadReadPaused: Promise<void> = Promise.resolve()
let received = 0

const hono = new Hono()
hono.get('/download', (c) => {
  produced = 0
  const chunk = new Uint8Array(64 * 1024)
  return c.body(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= TOTAL) return controller.close()
        produced += chunk.byteLength
        controller.enqueue(chunk)
      },
    }),
  )
})
hono.post('/upload', async (c) => {
  received = 0
  const reader = c.req.raw.body!.getReader()
  const first = await reader.read()
  received += first.value!.byteLength
  await uploadReadPaused
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    received += value.byteLength
  }
  return c.text(String(received))
})

let server: Running
beforeAll(async () => {
  const bridge = fetchBridge(hono)
  server = await listen((req, res) => bridge(req, res))
})
afterAll(() => server.close())

it('download: while the client does not read, the producer is held back', async () => {
  let producedWhilePaused = -1
  const done = new Promise<number>((resolve, reject) => {
    http.get({ port: server.port, host: '127.0.0.1', path: '/download' }, (res) => {
      let got = 0
      res.once('data', async (chunk: Buffer) => {
        got += chunk.length
        res.pause()
        await sleep(500)
        producedWhilePaused = produced
        res.on('data', (c: Buffer) => (got += c.length))
        res.resume()
      })
      res.on('end', () => resolve(got))
      res.on('error', reject)
    }).on('error', reject)
  })
  expect(await done).toBe(TOTAL)
  // Production was bounded by what the pipes hold, not by the body size.
  expect(producedWhilePaused).toBeGreaterThan(0)
  expect(producedWhilePaused).toBeLessThan(SLACK)
  expect(produced).toBe(TOTAL)
})

it('upload: while the app does not read, the client is held back', async () => {
  let release!: () => void
  uploadReadPaused = new Promise<void>((resolve) => (release = resolve))
  let sent = 0
  const chunk = Buffer.alloc(64 * 1024, 97)
  const reply = new Promise<string>((resolve, reject) => {
    const req = http.request(
      { port: server.port, host: '127.0.0.1', path: '/upload', method: 'POST', headers: { 'content-length': TOTAL } },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c))
        res.on('end', () => resolve(text))
      },
    )
    req.on('error', reject)
    const pump = () => {
      while (sent < TOTAL) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
  await sleep(500)
  expect(sent).toBeLessThan(SLACK)
  release()
  expect(await reply).toBe(String(TOTAL))
})
