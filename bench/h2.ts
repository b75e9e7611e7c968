/**
 * `npm run bench:h2`: the front door over HTTP/2 (h2c) against @hono/node-server's `serve()` over
 * HTTP/2, with h2load (Debian nghttp2-client). Same method as `npm run bench`: each mode its own process
 * from dist/ pinned to CPU 0, h2load pinned to CPU 1, warm-up, interleaved rounds (A B, B A, …), judged
 * by the server's CPU time per request (/proc utime + stime ÷ requests h2load completed), the median
 * of the per-round ratios; req/s and mean latency beside it (h2load prints no percentiles).
 * Options: --rounds N (default 5), --duration S (default 5), --routes /a,/b, --node <binary>,
 * --clients C (default 4), --streams M (default 10). Results: bench/results/h2-node<major>.md.
 */
import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { buildServers } from './build.js'
import { cpuMicros, pinned, startServer, stopServer, useNode, type RunningServer } from './server-process.js'
import { median } from './stats.js'
import { ECHO_BODY } from './workload.js'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}

const rounds = Number(arg('rounds', '5'))
const duration = Number(arg('duration', '5'))
const clients = Number(arg('clients', '4'))
const streams = Number(arg('streams', '10'))
const routes = arg('routes', '/,/json,/mw,/stream,/echo').split(',')
const node = arg('node', process.env.BENCH_NODE || process.execPath)
const MODES = [
  { id: 'h2-bridge', label: 'express-fetch-bridge front door, listen({ http2: true })' },
  { id: 'h2-hono-serve', label: "@hono/node-server serve({ createServer: http2.createServer })" },
]

interface Sample {
  rps: number
  meanMs: number
  requests: number
  cpuUs: number
}

/** The command line as run, without this machine's paths (`--node <path>` shows the version instead). */
function shownArgs(): string {
  const args = process.argv.slice(2)
  const i = args.indexOf('--node')
  if (i !== -1) args[i + 1] = `<node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()} binary>`
  return args.join(' ')
}

const echoFile = path.join(tmpdir(), `bench-h2-echo-${process.pid}.json`)

function h2load(s: RunningServer, route: string, seconds: number): Promise<Sample> {
  const args = ['-D', String(seconds), '-c', String(clients), '-m', String(streams), '-t', '1']
  if (route === '/echo') args.push('-d', echoFile, '-H', 'content-type: application/json')
  args.push(`http://127.0.0.1:${s.port}${route}`)
  const [cmd, cmdArgs] = pinned(1, 'h2load', args)
  const before = cpuMicros(s.pid)
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.once('error', reject)
    child.once('exit', (code) => {
      const cpu = cpuMicros(s.pid) - before
      const done = /requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(out)
      const rps = /finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(out)
      const mean = /time for request:\s+\S+\s+\S+\s+(\S+)/.exec(out)
      if (code !== 0 || !done || !rps) return reject(new Error(`h2load failed (${code}):\n${out}`))
      if (Number(done[3]) + Number(done[4]) > 0) return reject(new Error(`h2load: failed or errored requests:\n${out}`))
      const requests = Number(done[2])
      const m = mean ? mean[1] : '0ms'
      const meanMs = m.endsWith('us') ? parseFloat(m) / 1000 : m.endsWith('ms') ? parseFloat(m) : parseFloat(m) * 1000
      resolve({ rps: Number(rps[1]), meanMs, requests, cpuUs: cpu / requests })
    })
  })
}

async function main(): Promise<void> {
  if (spawnSync('h2load', ['--version']).error) throw new Error('h2load not found: apt-get install -y nghttp2-client')
  writeFileSync(echoFile, ECHO_BODY)
  useNode(node)
  const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  await buildServers({ skipPackageBuild: process.argv.includes('--no-build') })
  const servers: RunningServer[] = []
  try {
    for (const mode of MODES) servers.push(await startServer(mode.id))
    for (const r of routes) for (const s of servers) await h2load(s, r, 2)
    const samples: Record<string, Record<string, Sample[]>> = {}
    for (const r of routes) samples[r] = Object.fromEntries(servers.map((s) => [s.mode, []]))
    for (let round = 0; round < rounds; round++) {
      for (const r of routes) {
        const order = round % 2 === 0 ? servers : [...servers].reverse()
        for (const s of order) samples[r][s.mode].push(await h2load(s, r, duration))
      }
      console.log(`round ${round + 1}/${rounds} done`)
    }
    const cpu = spawnSync('grep', ['-m1', 'model name', '/proc/cpuinfo'], { encoding: 'utf8' }).stdout.split(':')[1]?.trim()
    const h2v = spawnSync('h2load', ['--version'], { encoding: 'utf8' }).stdout.trim()
    const lines = [
      `# HTTP/2 benchmark, Node ${nodeVersion}`,
      '',
      `Date: ${new Date().toISOString()}. Machine: ${cpu ?? 'unknown'}, ${cpus().length} cores, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')} (a shared, noisy machine: read the paired ratios).`,
      `Command: \`npm run bench:h2 -- ${shownArgs()}\` (${h2v}; h2c, ${clients} connections × ${streams} concurrent streams, ${rounds} interleaved rounds of ${duration} s after a 2 s warm-up per route; server on CPU 0, h2load on CPU 1).`,
      '',
      'CPU per request is the server process\'s utime + stime ÷ requests completed; the ratio is the median of the per-round ratios (bridge ÷ @hono/node-server, below 1 = the bridge uses less CPU).',
      '',
      '| route | bridge µs CPU/req | @hono/node-server µs CPU/req | ratio (median of rounds) | bridge req/s | @hono/node-server req/s | bridge mean ms | @hono/node-server mean ms |',
      '|---|---|---|---|---|---|---|---|',
    ]
    for (const r of routes) {
      const a = samples[r]['h2-bridge']
      const b = samples[r]['h2-hono-serve']
      const ratio = median(a.map((x, i) => x.cpuUs / b[i].cpuUs))
      const med = (xs: Sample[], k: keyof Sample) => median(xs.map((x) => x[k]))
      lines.push(
        `| ${r} | ${med(a, 'cpuUs').toFixed(1)} | ${med(b, 'cpuUs').toFixed(1)} | ${ratio.toFixed(3)} | ${med(a, 'rps').toFixed(0)} | ${med(b, 'rps').toFixed(0)} | ${med(a, 'meanMs').toFixed(2)} | ${med(b, 'meanMs').toFixed(2)} |`,
      )
    }
    lines.push('', 'Modes:', ...MODES.map((m) => `- \`${m.id}\`: ${m.label}`), '')
    const major = nodeVersion.replace(/^v/, '').split('.')[0]
    const file = path.join(__dirname, 'results', `h2-node${major}.md`)
    writeFileSync(file, lines.join('\n'))
    console.log(lines.join('\n'))
  } finally {
    for (const s of servers) await stopServer(s)
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
