/**
 * The cost of a shadow trial: an Express route behind the bridge with its Hono twin shadowed on every
 * request (100% sampling; noise runs at their default, the first 5 and 10% after), against the same
 * route without a trial, and a trial on another route (what the routes not under trial pay). Each
 * variant runs in its own process from dist/ (pinned like `npm run bench`); rounds are interleaved and
 * the figure is the off variant's server CPU per request ÷ the variant's, median of the per-round ratios.
 *
 *   npm run bench:shadow [-- --rounds 5 --duration 3 --node PATH]
 */
import { cpus, loadavg } from 'node:os'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildServers, ROOT } from './build.js'
import type { RouteInfo } from './modes.js'
import { startServer, stopServer, useNode, type RunningServer } from './server-process.js'
import { median, pairedCpuRatio } from './stats.js'
import { wrk, type Sample } from './wrk.js'

const VARIANTS = [
  { id: 'off', label: 'shadow off (no trial)' },
  { id: 'other', label: 'a trial on another route' },
  { id: 'on', label: 'shadow on, 100% sampling' },
]
const ROUTE: RouteInfo = { path: '/products/1', method: 'GET', name: 'GET /products/1', driver: 'wrk' }

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}

async function main(): Promise<void> {
  const rounds = Number(flag('rounds', '5'))
  const duration = Number(flag('duration', '3'))
  const connections = Number(flag('connections', '50'))
  const node = flag('node', process.env.BENCH_NODE ?? process.execPath)
  useNode(node)
  await buildServers({ skipPackageBuild: process.argv.includes('--no-build') })
  const samples: Record<string, Sample[]> = Object.fromEntries(VARIANTS.map((v) => [v.id, []]))
  const servers: Record<string, RunningServer> = {}
  try {
    for (const v of VARIANTS) {
      process.env.SHADOW = v.id
      servers[v.id] = await startServer('shadow')
      await wrk(servers[v.id], ROUTE, 2, connections) // warm-up
    }
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < VARIANTS.length; k++) {
        const v = VARIANTS[(k + r) % VARIANTS.length]
        samples[v.id].push(await wrk(servers[v.id], ROUTE, duration, connections))
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map(stopServer))
  }
  const off = samples.off.map((s) => s.cpuUs)
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  const lines: string[] = []
  lines.push(`Shadow cost, Node ${version}, ${cpus()[0]?.model ?? '?'} (${cpus().length} cores), ${new Date().toISOString()}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}  `)
  const args = process.argv.slice(2).map((arg, i, all) => (all[i - 1] === '--node' ? `<node ${version.split('.')[0]} binary>` : arg))
  lines.push(`Command: \`npm run bench:shadow${args.length ? ' -- ' + args.join(' ') : ''}\`  `)
  lines.push(`${rounds} interleaved rounds of ${duration} s, wrk -t1 -c${connections}, GET /products/1 (an Express 5 route answering res.json(), its Hono twin c.json())\n`)
  lines.push('| Variant | CPU µs/req | off ÷ this (paired) | req/s | client p50 ms | client p99 ms |', '|---|---:|---:|---:|---:|---:|')
  for (const v of VARIANTS) {
    const s = samples[v.id]
    const cpu = s.map((x) => x.cpuUs)
    const ratio = v.id === 'off' ? 1 : pairedCpuRatio(cpu, off)
    const row = [
      v.label,
      median(cpu).toFixed(1),
      ratio.toFixed(2),
      Math.round(median(s.map((x) => x.rps))).toLocaleString('en-US'),
      median(s.map((x) => x.p50)).toFixed(2),
      median(s.map((x) => x.p99)).toFixed(2),
    ]
    lines.push(`| ${row.join(' | ')} |`)
  }
  const major = version.slice(1).split('.')[0]
  const file = path.join(ROOT, 'bench', 'results', `shadow-cost-node${major}.md`)
  writeFileSync(file, lines.join('\n') + '\n')
  console.log('\n' + lines.join('\n') + `\n\n(written to ${path.relative(ROOT, file)})`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
