/**
 * `npm run bench:instructions -- <route> <mode> [<mode> …] [--rounds 2] [--warmup 15] [--seconds 20] [--no-build]`:
 * machine instructions per request, counted by valgrind's callgrind, for the given modes on one route
 * (a route wrk drives: not the bulk ones). Unlike CPU time, an instruction count does not move with
 * the machine's load, so it separates differences of a few percent that `npm run bench` cannot on a
 * shared VM (a count is not a time: cache misses and system calls are not in it).
 *
 * Each server runs under callgrind with instrumentation off, is warmed up with wrk (the JIT settles),
 * then counted over a timed wrk run with instrumentation on: the main thread's instructions (the
 * event loop: JavaScript, Node's C++ and the GC work done there), divided by the requests wrk
 * completed. V8's helper threads are left out: valgrind runs one thread at a time, and a helper
 * waiting its turn can spin, so their counts moved two- to fourfold between identical runs. The modes are run in interleaved rounds and the median of
 * each mode's rounds is reported. Needs valgrind (Debian: `apt-get install -y valgrind`) and wrk.
 */
import { execFile, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { scriptArgs } from './config.js'
import { buildServers, ROOT, serverFile } from './build.js'
import { MODES, ROUTES, bodyBytes, type RouteInfo } from './modes.js'
import { pinned } from './server-process.js'
import { parseWrk } from './stats.js'

const run = promisify(execFile)

function parse(argv: string[]) {
  const { positional, num, build } = scriptArgs(argv)
  const [routePath, ...modes] = positional
  const route = ROUTES.find((r) => r.path === routePath)
  if (route === undefined || bodyBytes(route) > 0 || modes.length === 0 || modes.some((m) => !MODES.some((x) => x.id === m))) {
    throw new Error(
      `usage: npm run bench:instructions -- <route> <mode> [<mode> …]\n  routes: ${ROUTES.filter((r) => bodyBytes(r) === 0).map((r) => r.path).join(', ')}\n  modes: ${MODES.map((x) => x.id).join(', ')}`,
    )
  }
  return { route, modes, rounds: num('rounds', 2), warmup: num('warmup', 15), seconds: num('seconds', 20), build }
}

async function wrk(port: number, route: RouteInfo, seconds: number): Promise<number> {
  // Few connections: a server under callgrind is some 50× slower than natively.
  const args = ['-t1', '-c10', '--timeout', '10s', '--latency', `-d${seconds}s`]
  if (route.method === 'POST') args.push('-s', path.join(__dirname, 'post.lua'))
  args.push(`http://127.0.0.1:${port}${route.path}`)
  const [cmd, cmdArgs] = pinned(1, 'wrk', args)
  const w = parseWrk((await run(cmd, cmdArgs)).stdout)
  if (w.non2xx || w.socketErrors) throw new Error(`${route.path}: ${w.non2xx} non-2xx answers, ${w.socketErrors} socket errors`)
  return w.requests
}

/** One counted run of one mode: instructions per request. */
async function count(mode: string, route: RouteInfo, warmup: number, seconds: number, dir: string): Promise<number> {
  const out = path.join(dir, `${mode}.${Date.now()}`)
  const node = process.env.BENCH_NODE || process.execPath
  const [cmd, args] = pinned(0, 'valgrind', ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', '--separate-threads=yes', `--callgrind-out-file=${out}`, node, serverFile(mode)])
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_ENV: 'production' } })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const { port, pid } = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode}: exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as { port: number; pid: number })
    })
  })
  await wrk(port, route, warmup)
  await run('callgrind_control', ['-i', 'on', String(pid)])
  const requests = await wrk(port, route, seconds)
  await run('callgrind_control', ['-i', 'off', String(pid)])
  child.kill('SIGTERM')
  await exited
  // Thread 1, the main thread: callgrind names its file <out>-01.
  const main = readdirSync(dir).find((name) => name === `${path.basename(out)}-01`)
  const m = main === undefined ? null : /^totals: (\d+)/m.exec(readFileSync(path.join(dir, main), 'utf8'))
  if (m === null) throw new Error(`${mode}: callgrind wrote no count for the main thread`)
  return Number(m[1]) / requests
}

async function main(): Promise<void> {
  const { route, modes, rounds, warmup, seconds, build } = parse(process.argv.slice(2))
  if (build) await buildServers()
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-instructions-'))
  const counts = new Map<string, number[]>(modes.map((m) => [m, []]))
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of modes) {
        const n = await count(mode, route, warmup, seconds, dir)
        counts.get(mode)!.push(n)
        console.error(`round ${round + 1}/${rounds} ${mode}: ${(n / 1000).toFixed(1)} K instructions/request`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const mid = s.length >> 1
    return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
  }
  const first = median(counts.get(modes[0])!)
  console.log(`${route.method} ${route.path}, ${rounds} rounds, ${warmup} s warm-up, ${seconds} s counted, wrk -t1 -c10 (Node ${spawnSync(process.env.BENCH_NODE || process.execPath, ['-v'], { encoding: 'utf8' }).stdout.trim()})`)
  console.log('| Mode | K instructions/request (median) | rounds | ÷ first mode |')
  console.log('|---|---:|---|---:|')
  for (const mode of modes) {
    const xs = counts.get(mode)!
    console.log(`| ${mode} | ${(median(xs) / 1000).toFixed(1)} | ${xs.map((x) => (x / 1000).toFixed(1)).join(' ')} | ${(median(xs) / first).toFixed(2)} |`)
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
