/**
 * `npm run bench`: every mode in its own server process pinned to CPU 0, wrk pinned to CPU 1,
 * a warm-up, then interleaved rounds (A B C … A B C …, the order rotating each round). Reports the
 * median req/s and p99 per mode and route, and the median of per-round ratios to the Express floor
 * and to @hono/node-server inside Express.
 *
 * Environment (all optional):
 *   BENCH_QUICK=1         smoke test: 1 round of 1 s, 1 s warm-up
 *   BENCH_ROUNDS=4        interleaved rounds
 *   BENCH_DURATION=3      seconds per wrk run
 *   BENCH_WARMUP=2        seconds of warm-up per mode and route
 *   BENCH_CONNECTIONS=100 wrk connections
 *   BENCH_MODES=a,b       only these modes (the floor and @hono/node-server-in-Express are always added)
 *   BENCH_ROUTES=/,/json  only these routes
 *   BENCH_CPU_PROF=dir    run the servers with --cpu-prof, profiles written to dir/<mode>/ on exit
 *                         (summarise the largest with `tsx bench/cpuprofile-top.ts <file>`)
 *   BENCH_BASELINE_SRC=p  add a mode serving another copy of the bridge (p = its src/index.ts), e.g. the
 *                         previous commit's, to compare a change in the same interleaved rounds
 *   BENCH_NO_PIN=1        do not pin with taskset
 *   BENCH_OUT=name        results basename in bench/results (default: latest for a full default run,
 *                         scratch otherwise, which git ignores)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { CHUNK, ECHO_BODY, JSON_BODY, STREAM_CHUNKS } from './app.js'
import { FLOOR, HONO_IN_EXPRESS, MODES, ROUTES, type ModeInfo, type RouteInfo } from './modes.js'
import { median, writeResults, type BenchResults, type Sample } from './report.js'

const ROOT = path.resolve(__dirname, '..')
const env = process.env

function num(name: string, fallback: number): number {
  const v = env[name]
  if (v === undefined || v === '') return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${v}`)
  return n
}

const quick = env.BENCH_QUICK === '1'
const config = {
  rounds: Math.round(num('BENCH_ROUNDS', quick ? 1 : 4)),
  // wrk takes whole seconds.
  duration: Math.round(num('BENCH_DURATION', quick ? 1 : 3)),
  warmup: Math.round(num('BENCH_WARMUP', quick ? 1 : 2)),
  connections: Math.round(num('BENCH_CONNECTIONS', 100)),
}

function pick<T>(all: T[], list: string | undefined, key: (t: T) => string, what: string): T[] {
  if (!list) return all
  const wanted = list.split(',').map((s) => s.trim()).filter(Boolean)
  for (const w of wanted) if (!all.some((t) => key(t) === w)) throw new Error(`unknown ${what} ${w}`)
  return all.filter((t) => wanted.includes(key(t)))
}

const routes = pick(ROUTES, env.BENCH_ROUTES, (r) => r.path, 'route')
let modes = pick(MODES.filter((m) => m.available), env.BENCH_MODES, (m) => m.id, 'mode')
// The ratios need both references, and every mode's own comparison.
for (const ref of [FLOOR, HONO_IN_EXPRESS, ...modes.flatMap((m) => (m.compareTo ? [m.compareTo] : []))]) {
  if (!modes.some((m) => m.id === ref)) modes = MODES.filter((m) => m.id === ref || modes.includes(m))
}

const custom = quick || Object.keys(env).some((k) => k.startsWith('BENCH_') && k !== 'BENCH_OUT' && k !== 'BENCH_NO_PIN')
const outName = env.BENCH_OUT || (custom ? 'scratch' : 'latest')

const twoCpus = cpus().length >= 2 && existsSync('/usr/bin/taskset') && env.BENCH_NO_PIN !== '1'
function pinned(cpu: number, cmd: string, args: string[]): [string, string[]] {
  return twoCpus ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args]
}

interface RunningServer {
  mode: ModeInfo
  port: number
  child: ChildProcess
}

function startServer(mode: ModeInfo): Promise<RunningServer> {
  const nodeArgs: string[] = []
  if (env.BENCH_CPU_PROF) {
    // One directory per mode: tsx's loader thread writes a profile of its own next to the main one.
    const dir = path.resolve(env.BENCH_CPU_PROF, mode.id)
    mkdirSync(dir, { recursive: true })
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`)
  }
  nodeArgs.push('--import', 'tsx', path.join(__dirname, 'server.ts'), mode.id)
  const [cmd, args] = pinned(0, process.execPath, nodeArgs)
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode.id}: server did not start within 60 s`)), 60_000)
    child.once('exit', (code) => reject(new Error(`${mode.id}: server exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      child.removeAllListeners('exit')
      resolve({ mode, port: JSON.parse(line).port, child })
    })
  })
}

function stopServer(s: RunningServer): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null) return resolve()
    s.child.once('exit', () => resolve())
    s.child.kill('SIGTERM')
  })
}

// ---- correctness ------------------------------------------------------------------------------

const STREAM_TEXT = CHUNK.toString('latin1').repeat(STREAM_CHUNKS)
const norm = (ct: string | null) => (ct === null ? null : ct.toLowerCase().replace(/\s+/g, ''))

interface Expect {
  body: (text: string) => boolean
  contentType: string | null
  headers?: Record<string, string>
}
const EXPECT: Record<string, Expect> = {
  '/': { body: (t) => t === 'foo', contentType: 'text/plain;charset=utf-8', headers: { 'x-foo': 'bar' } },
  '/uint8array': { body: (t) => t === 'foo', contentType: null },
  '/blob': { body: (t) => t === 'foo', contentType: null },
  '/json': { body: (t) => t === JSON.stringify(JSON_BODY), contentType: 'application/json' },
  '/echo': { body: (t) => t === JSON.stringify(JSON.parse(ECHO_BODY)), contentType: 'application/json' },
  '/stream': { body: (t) => t === STREAM_TEXT, contentType: 'text/plain;charset=utf-8' },
}
/** Content types that differ from the Fetch spec by the mode's own design or a peer's behaviour. */
const KNOWN_CONTENT_TYPE: Record<string, Record<string, { type: string; note: string }>> = {
  'express5-native': {
    '/uint8array': { type: 'application/octet-stream', note: 'res.send(Buffer) defaults to application/octet-stream' },
    '/blob': { type: 'application/octet-stream', note: 'res.send(Buffer) defaults to application/octet-stream' },
    '/json': { type: 'application/json;charset=utf-8', note: '' },
    '/echo': { type: 'application/json;charset=utf-8', note: '' },
  },
  'hono-node-server-express5': {
    '/uint8array': { type: 'text/plain;charset=utf-8', note: '@hono/node-server labels a Uint8Array body text/plain' },
    '/blob': { type: 'text/plain;charset=utf-8', note: '@hono/node-server labels an untyped Blob body text/plain' },
  },
}
KNOWN_CONTENT_TYPE['hono-node-server-serve'] = KNOWN_CONTENT_TYPE['hono-node-server-express5']
KNOWN_CONTENT_TYPE['bridge-front-door-fallback'] = KNOWN_CONTENT_TYPE['express5-native']

async function check(s: RunningServer, route: RouteInfo, notes: Set<string>): Promise<void> {
  const url = `http://127.0.0.1:${s.port}${route.path}`
  const init: RequestInit = route.method === 'POST' ? { method: 'POST', body: ECHO_BODY, headers: { 'content-type': 'application/json' } } : {}
  const res = await fetch(url, init)
  const text = await res.text()
  const fail = (what: string) => {
    throw new Error(`correctness check failed: ${s.mode.id} ${route.method} ${route.path}: ${what}`)
  }
  if (res.status !== 200) fail(`status ${res.status}`)
  const exp = EXPECT[route.path]
  if (!exp.body(text)) fail(`unexpected body ${JSON.stringify(text.slice(0, 80))} (${text.length} chars)`)
  const known = KNOWN_CONTENT_TYPE[s.mode.id]?.[route.path]
  const wantType = known ? known.type : exp.contentType
  if (norm(res.headers.get('content-type')) !== wantType) fail(`content-type ${res.headers.get('content-type')}, expected ${wantType}`)
  if (known?.note) notes.add(`${s.mode.label}, ${route.name}: ${known.note}.`)
  for (const [k, v] of Object.entries(exp.headers ?? {})) if (res.headers.get(k) !== v) fail(`header ${k}: ${res.headers.get(k)}`)
}

// ---- wrk -------------------------------------------------------------------------------------

function toMs(value: string, unit: string): number {
  const v = Number(value)
  return unit === 'us' ? v / 1000 : unit === 's' ? v * 1000 : unit === 'm' ? v * 60_000 : v
}

/** utime + stime of a process in seconds (Linux), or NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return NaN
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

async function wrk(s: RunningServer, route: RouteInfo, seconds: number): Promise<Sample> {
  // Server CPU time per request barely moves when other processes compete for the cores (req/s does).
  const cpuBefore = cpuSeconds(s.child.pid)
  const sample = await runWrk(s, route, seconds)
  sample.cpuUs = ((cpuSeconds(s.child.pid) - cpuBefore) * 1e6) / sample.requests
  return sample
}

function runWrk(s: RunningServer, route: RouteInfo, seconds: number): Promise<Sample> {
  const args = ['-t1', `-c${config.connections}`, `-d${seconds}s`, '--latency']
  if (route.method === 'POST') args.push('-s', path.join(__dirname, 'post.lua'))
  args.push(`http://127.0.0.1:${s.port}${route.path}`)
  const [cmd, cmdArgs] = pinned(1, 'wrk', args)
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.once('error', reject)
    child.once('exit', (code) => {
      const where = `${s.mode.id} ${route.method} ${route.path}`
      if (code !== 0) return reject(new Error(`wrk failed for ${where} (exit ${code}):\n${out}`))
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)
      const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out)
      if (!rps || !p99) return reject(new Error(`cannot parse wrk output for ${where}:\n${out}`))
      const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)
      if (non2xx) return reject(new Error(`${where}: ${non2xx[1]} responses were not 2xx/3xx`))
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
      if (errors && (Number(errors[1]) || Number(errors[2]) || Number(errors[3]))) {
        return reject(new Error(`${where}: socket errors: ${errors[0]}`))
      }
      const requests = /(\d+) requests in/.exec(out)
      resolve({
        rps: Number(rps[1]),
        p99: toMs(p99[1], p99[2]),
        timeouts: errors ? Number(errors[4]) : 0,
        requests: requests ? Number(requests[1]) : NaN,
        cpuUs: NaN,
      })
    })
  })
}

// ---- main ------------------------------------------------------------------------------------

function machine() {
  const cpuinfo = spawnSync('grep', ['-m1', 'model name', '/proc/cpuinfo'], { encoding: 'utf8' }).stdout
  const wrkVersion = spawnSync('wrk', ['-v'], { encoding: 'utf8' })
  return {
    cpu: cpuinfo.split(':')[1]?.trim() || cpus()[0]?.model || 'unknown',
    cores: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    wrk: (wrkVersion.stdout + wrkVersion.stderr).split('\n')[0].replace(/\s*\[.*$/, '').trim(),
    pinned: twoCpus,
  }
}

function commandLine(): string {
  const vars = Object.keys(env).filter((k) => k.startsWith('BENCH_')).sort().map((k) => `${k}=${env[k]}`)
  return [...vars, 'npm run bench'].join(' ')
}

async function main(): Promise<void> {
  if (spawnSync('wrk', ['-v']).error) throw new Error('wrk not found: install it with `apt-get install -y wrk`')
  if (!twoCpus) console.warn('warning: not pinning (needs 2 CPUs and taskset); figures will be noisier')
  const runs = modes.length * routes.length
  const estimate = runs * (config.warmup + config.rounds * config.duration)
  console.log(`${modes.length} modes × ${routes.length} routes, ${config.rounds} rounds of ${config.duration} s, ` +
    `${config.warmup} s warm-up, ${config.connections} connections: about ${Math.ceil(estimate / 60)} min`)

  const servers: RunningServer[] = []
  const onSignal = () => {
    for (const s of servers) s.child.kill('SIGTERM')
    process.exit(130)
  }
  process.on('SIGINT', onSignal)
  try {
    for (const mode of modes) servers.push(await startServer(mode))
    const notes = new Set<string>()
    for (const s of servers) for (const r of routes) await check(s, r, notes)
    console.log('correctness: every mode answered every route as expected')

    for (const r of routes) for (const s of servers) await wrk(s, r, config.warmup)
    console.log('warm-up done')

    const samples: Record<string, Record<string, Sample[]>> = {}
    for (const r of routes) samples[r.path] = Object.fromEntries(servers.map((s) => [s.mode.id, []]))
    for (let round = 0; round < config.rounds; round++) {
      for (const r of routes) {
        // Rotate the order each round so no mode always runs first after a route change.
        for (let i = 0; i < servers.length; i++) {
          const s = servers[(i + round) % servers.length]
          samples[r.path][s.mode.id].push(await wrk(s, r, config.duration))
        }
      }
      console.log(`round ${round + 1}/${config.rounds} done`)
    }

    const results: BenchResults = {
      date: new Date().toISOString(),
      command: commandLine(),
      machine: machine(),
      config,
      modes: modes.map(({ id, label }) => ({ id, label })),
      routes: routes.map(({ path: p, method, name }) => ({ path: p, method, name })),
      floor: FLOOR,
      reference: HONO_IN_EXPRESS,
      notes: [...notes],
      results: {},
    }
    for (const r of routes) {
      const byMode = samples[r.path]
      const ratio = (id: string, ref: string) => median(byMode[id].map((x, k) => x.rps / byMode[ref][k].rps))
      results.results[r.path] = {}
      for (const m of modes) {
        results.results[r.path][m.id] = {
          rps: median(byMode[m.id].map((x) => x.rps)),
          p99: median(byMode[m.id].map((x) => x.p99)),
          cpuUs: median(byMode[m.id].map((x) => x.cpuUs)),
          cpuVsFloor: median(byMode[m.id].map((x, k) => byMode[FLOOR][k].cpuUs / x.cpuUs)),
          vsFloor: ratio(m.id, FLOOR),
          vsReference: ratio(m.id, HONO_IN_EXPRESS),
          ...(m.compareTo ? { compareTo: m.compareTo, vsCompareTo: ratio(m.id, m.compareTo) } : {}),
          rounds: byMode[m.id],
        }
      }
    }
    const written = writeResults(path.join(ROOT, 'bench', 'results'), outName, results, outName === 'latest' ? path.join(ROOT, 'README.md') : undefined)
    console.log(written.markdown)
    console.log(`written: ${written.files.map((f) => path.relative(ROOT, f)).join(', ')}`)
  } finally {
    await Promise.all(servers.map(stopServer))
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
