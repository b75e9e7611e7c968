/**
 * `npm run bench:tracing`: what tracing costs per request, for an Express route and for the same route
 * moved to Hono behind the bridge. Four servers (bench/tracing-server.ts; Express or bridge, with or
 * without the standard OpenTelemetry set-up), each its own process pinned to CPU 0, GET /json by wrk
 * pinned to CPU 1, warm-up, then interleaved rounds (the order rotating). Per round: server CPU µs per
 * request (/proc utime + stime ÷ requests); reported: medians, and the paired per-round difference
 * "with OpenTelemetry − without" for each side. Options: --rounds N (5), --seconds S (5), -c N (16).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { CAN_PIN, cpuMicros, pinned } from './server-process.js'
import { median, parseWrk } from './stats.js'

const ROOT = path.resolve(__dirname, '..')
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const rounds = arg('--rounds', 5)
const seconds = arg('--seconds', 5)
const connections = arg('-c', 16)

interface Server {
  name: string
  port: number
  pid: number
  stop(): void
}

function start(mode: 'express' | 'bridge', otel: boolean): Promise<Server> {
  const [cmd, args] = pinned(0, process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(__dirname, 'tracing-server.ts')])
  const env = { ...process.env, NODE_ENV: 'production', TRACING_MODE: mode, TRACING_OTEL: otel ? '1' : '0' }
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
  const name = `${mode === 'express' ? 'Express route' : 'Hono route behind the bridge'}${otel ? ', OpenTelemetry' : ''}`
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name}: exited with ${code}`)))
    createInterface({ input: child.stdout! }).once('line', (line) => {
      child.removeAllListeners('exit')
      const { port, pid } = JSON.parse(line) as { port: number; pid: number }
      resolve({ name, port, pid, stop: () => child.kill('SIGTERM') })
    })
  })
}

function load(s: Server, secs: number): { usPerReq: number; rps: number; p99: number } {
  const before = cpuMicros(s.pid)
  const [cmd, args] = pinned(1, 'wrk', ['-t1', `-c${connections}`, `-d${secs}s`, '--latency', `http://127.0.0.1:${s.port}/json`])
  const out = spawnSync(cmd, args, { encoding: 'utf8' }).stdout
  const summary = parseWrk(out)
  if (summary.non2xx > 0 || summary.socketErrors > 0) throw new Error(`${s.name}: errors under load:\n${out}`)
  return { usPerReq: (cpuMicros(s.pid) - before) / summary.requests, rps: summary.rps, p99: summary.p99 }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist', 'cjs', 'index.js'))) spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  if (!CAN_PIN) console.warn('warning: not pinning (needs 2 CPUs and taskset); figures will be noisier')
  const servers = [await start('express', false), await start('express', true), await start('bridge', false), await start('bridge', true)]
  try {
    for (const s of servers) load(s, 3)
    const samples = servers.map(() => [] as Array<ReturnType<typeof load>>)
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (k + round) % servers.length
        samples[i].push(load(servers[i], seconds))
      }
    }
    console.log(`GET /json, ${rounds} rounds of ${seconds} s, wrk -c${connections}, Node ${process.version}`)
    servers.forEach((s, i) => {
      const us = median(samples[i].map((x) => x.usPerReq))
      console.log(`${s.name.padEnd(48)} ${us.toFixed(1)} µs CPU/req  ${median(samples[i].map((x) => x.rps)).toFixed(0)} req/s  p99 ${median(samples[i].map((x) => x.p99)).toFixed(2)} ms`)
    })
    for (const [without, withOtel] of [[0, 1], [2, 3]]) {
      const cost = median(samples[withOtel].map((x, k) => x.usPerReq - samples[without][k].usPerReq))
      console.log(`tracing cost, ${servers[without].name}: +${cost.toFixed(1)} µs CPU/req (median of paired rounds)`)
    }
  } finally {
    for (const s of servers) s.stop()
  }
}
void main()
