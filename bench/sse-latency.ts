/**
 * `npm run bench:sse [-- --connections 2000 --seconds 10 --modes a,b --no-build]`: streaming latency and
 * memory per connection, bridge against @hono/node-server, loopback only, a few minutes at most.
 *
 * - Latency: N concurrent SSE streams (hono/streaming streamSSE, bench/app.ts /sse), one event a second
 *   each carrying the app's wall-clock write time; the client (this process, pinned to CPU 1) records
 *   read time − write time for every event of the timed window; p50/p99/max reported.
 * - Memory: the server's RSS and heapUsed after a full GC (--expose-gc), before and after opening N
 *   idle keep-alive connections (one GET /json each, then idle) and, in a fresh server, N open SSE
 *   streams; the delta ÷ N is the cost of one connection / one stream.
 */
import { spawnSync } from 'node:child_process'
import { buildServers } from './build.js'
import { MODES } from './modes.js'
import { CAN_PIN, serverMemory, startServer, stopServer, type RunningServer } from './server-process.js'
import { closeAll, openMany, sseRecorder } from './sse-client.js'
import { median, percentile } from './stats.js'

const argv = process.argv.slice(2)
const flag = (name: string, d: string) => {
  const i = argv.indexOf(`--${name}`)
  return i === -1 ? d : argv[i + 1]
}
const N = Number(flag('connections', '2000'))
const SECONDS = Number(flag('seconds', '10'))
const modes = flag('modes', 'bridge-express,hono-express,bridge-front-door,hono-serve').split(',')
for (const m of modes) if (!MODES.some((x) => x.id === m) || m.startsWith('express-floor') || m === 'node-raw') throw new Error(`no /sse in mode ${m}`)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const SSE_REQ = 'GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'
const JSON_REQ = 'GET /json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

interface Mem {
  rss: number
  heap: number
}
async function mem(s: RunningServer): Promise<Mem> {
  const m = await serverMemory(s)
  if (!m.gc) throw new Error('server not started with --expose-gc')
  return { rss: m.rss, heap: m.heapUsed }
}
const perConn = (a: Mem, b: Mem) => ({ rss: (b.rss - a.rss) / N, heap: (b.heap - a.heap) / N })
const start = (mode: string) => startServer(mode, { nodeArgs: ['--expose-gc'], ipc: true })

async function idleKeepAlive(mode: string) {
  const s = await start(mode)
  try {
    // Warm up: JIT, pools and one connection's worth of lazily built state exist before the baseline.
    await closeAll(await openMany(s.port, 200, JSON_REQ, () => {}))
    await sleep(200)
    const before = await mem(s)
    const sockets = await openMany(s.port, N, JSON_REQ, () => {})
    await sleep(500)
    const after = await mem(s)
    await closeAll(sockets)
    return perConn(before, after)
  } finally {
    await stopServer(s)
  }
}

async function sse(mode: string) {
  const s = await start(mode)
  try {
    await closeAll(await openMany(s.port, 100, SSE_REQ, () => {}))
    await sleep(1500)
    const before = await mem(s)
    let recording = false
    const latencies: number[] = []
    const sockets = await openMany(s.port, N, SSE_REQ, sseRecorder((ms) => recording && latencies.push(ms)))
    // Every stream has sent its first events (the first one within a random second).
    await sleep(2500)
    const after = await mem(s)
    await sleep(1000)
    recording = true
    await sleep(SECONDS * 1000)
    recording = false
    await closeAll(sockets)
    return { latencies, memory: perConn(before, after) }
  } finally {
    await stopServer(s)
  }
}

const kib = (n: number) => (n / 1024).toFixed(2)
const msf = (n: number) => n.toFixed(2)

async function main(): Promise<void> {
  if (CAN_PIN) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })
  await buildServers({ skipPackageBuild: argv.includes('--no-build') })
  console.log(`${N} connections, ${SECONDS} s of one event a second per stream, loopback, server pinned to CPU 0${CAN_PIN ? ', client to CPU 1' : ''}`)
  const rows: string[] = []
  for (const mode of modes) {
    const idle = await idleKeepAlive(mode)
    const r = await sse(mode)
    const expected = N * SECONDS
    const l = r.latencies
    rows.push(`| ${mode} | ${msf(percentile(l, 50))} | ${msf(percentile(l, 99))} | ${msf(Math.max(...l))} | ${l.length} / ~${expected} | ` +
      `${kib(idle.rss)} / ${kib(idle.heap)} | ${kib(r.memory.rss)} / ${kib(r.memory.heap)} |`)
    console.log(`${mode}: done (median latency ${msf(median(l))} ms)`)
  }
  console.log('\n| mode | SSE latency p50 ms | p99 ms | max ms | events | idle keep-alive conn: RSS / heap KiB | open SSE stream: RSS / heap KiB |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const row of rows) console.log(row)
  console.log('\nLatency: the app\'s writeSSE call → the client\'s read. Memory: after a full GC, (after − before) ÷ connections.')
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err)
  process.exit(1)
})
