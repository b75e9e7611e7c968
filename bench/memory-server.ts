// Child process of bench/memory.ts: Express hosting a Hono app through the bridge. Answers the
// parent's IPC commands with memory figures and reports any unhandledRejection/uncaughtException.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../src/index.js'

const stray: string[] = []
process.on('unhandledRejection', (err) => stray.push(`unhandledRejection: ${String(err)}`))
process.on('uncaughtException', (err) => stray.push(`uncaughtException: ${String(err)}`))

const CHUNK = new Uint8Array(64 * 1024).fill(120)

const hono = new Hono()
hono.get('/download/:bytes', (c) => {
  const total = Number(c.req.param('bytes'))
  let sent = 0
  return c.body(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close()
        sent += CHUNK.byteLength
        controller.enqueue(CHUNK)
      },
    }),
    200,
    { 'content-type': 'application/octet-stream' },
  )
})
hono.post('/upload', async (c) => {
  let received = 0
  const reader = c.req.raw.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    received += value.byteLength
  }
  return c.text(String(received))
})
hono.get('/small', (c) => c.text('ok'))
hono.post('/echo', async (c) => c.json(await c.req.json()))

const app = express()
app.use(fetchBridge(hono))

let peak = 0
const sample = () => {
  const rss = process.memoryUsage().rss
  if (rss > peak) peak = rss
}
setInterval(sample, 10).unref()

const gc = (globalThis as { gc?: () => void }).gc
function collect(): void {
  if (gc === undefined) throw new Error('run with --expose-gc')
  for (let i = 0; i < 3; i++) gc()
}

const server = app.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port })
})

process.on('message', (msg: { id: number; cmd: string }) => {
  let value: unknown
  switch (msg.cmd) {
    case 'gc':
      collect()
      value = process.memoryUsage()
      break
    case 'reset-peak':
      peak = process.memoryUsage().rss
      value = peak
      break
    case 'peak':
      sample()
      value = peak
      break
    case 'stray':
      value = stray
      break
    case 'exit':
      server.close()
      server.closeAllConnections()
      process.disconnect()
      return
  }
  process.send!({ id: msg.id, value })
})
