/**
 * WebSocket echo benchmark: messages/s and round-trip p50/p99 over N connections, each sending its
 * next message when the echo of the previous one arrives.
 *
 *   npx tsx bench/ws-echo.ts [--connections 50] [--seconds 5] [--size 64] [--modes bridge,node-server,ws]
 *
 * Modes (each server in its own process, the clients in this one):
 *   bridge       Express app.listen() + fetchBridge(hono) + attachWebSockets(), Hono upgradeWebSocket route
 *   node-server  @hono/node-server 2.x serve() with its built-in `websocket: { server }` and upgradeWebSocket
 *   ws           plain ws WebSocketServer, echo in a 'message' listener (the floor)
 */
import { spawn } from 'node:child_process'
import os from 'node:os'
import WebSocket from 'ws'

type Mode = 'bridge' | 'node-server' | 'ws'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}

async function serve(mode: Mode): Promise<void> {
  const { WebSocketServer } = await import('ws')
  const { Hono } = await import('hono')
  const ready = (port: number) => process.stdout.write(`port ${port}\n`)
  if (mode === 'ws') {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })))
    wss.on('listening', () => ready((wss.address() as { port: number }).port))
    return
  }
  if (mode === 'node-server') {
    const { serve: honoServe, upgradeWebSocket } = await import('@hono/node-server')
    const hono = new Hono()
    hono.get('/echo', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(evt.data as string) })))
    honoServe({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1', websocket: { server: new WebSocketServer({ noServer: true }) } }, (info) => ready(info.port))
    return
  }
  const express = (await import('express')).default
  const { fetchBridge } = await import('../src/index.js')
  const { attachWebSockets, upgradeWebSocket } = await import('../src/websocket.js')
  const hono = new Hono()
  hono.get('/echo', upgradeWebSocket(() => ({ onMessage: (evt, ws) => ws.send(evt.data as string) })))
  const app = express()
  const bridge = fetchBridge(hono)
  app.use(bridge)
  const server = app.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port))
  attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }) })
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]
}

async function run(mode: Mode, connections: number, seconds: number, size: number) {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), __filename, '--serve', mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /port (\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
  })
  const payload = 'x'.repeat(size)
  const latencies: number[] = []
  let count = 0
  let running = true
  const sockets = await Promise.all(
    Array.from({ length: connections }, () => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/echo`)
      ws.once('open', () => resolve(ws))
      ws.once('error', reject)
    })),
  )
  // Warm-up, then measure.
  const start = await new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), 300))
  for (const ws of sockets) {
    let sent = 0
    ws.on('message', () => {
      if (!running) return
      latencies.push(performance.now() - sent)
      count++
      sent = performance.now()
      ws.send(payload)
    })
    sent = performance.now()
    ws.send(payload)
  }
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  running = false
  const elapsed = (performance.now() - start) / 1000
  for (const ws of sockets) ws.terminate()
  child.kill()
  latencies.sort((a, b) => a - b)
  return { mode, messagesPerSecond: Math.round(count / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99) }
}

async function main() {
  if (process.argv.includes('--serve')) return serve(arg('serve', 'ws') as Mode)
  const connections = Number(arg('connections', '50'))
  const seconds = Number(arg('seconds', '5'))
  const size = Number(arg('size', '64'))
  const modes = arg('modes', 'bridge,node-server,ws').split(',') as Mode[]
  console.log(`ws echo: ${connections} connections, ${seconds} s, ${size}-byte text messages; node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  for (const mode of modes) {
    const r = await run(mode, connections, seconds, size)
    console.log(`${r.mode.padEnd(12)} ${String(r.messagesPerSecond).padStart(8)} msg/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`)
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
