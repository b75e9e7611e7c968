/**
 * The legacy tax: what an Express route pays for a bridge in front of it, by the size of the Hono app
 * (0, 200, 2,000 routes) and with or without middleware for every path (cors + secureHeaders). Each
 * variant runs in its own process from dist/ (pinned like `npm run bench`); rounds are interleaved and
 * the figure is Express alone's server CPU per request ÷ the variant's, median of the per-round ratios.
 *
 *   npm run bench:legacy [-- --rounds 5 --duration 3 --node PATH]
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

interface Variant {
  id: string
  label: string
  env: Record<string, string>
}
const VARIANTS: Variant[] = [
  { id: 'alone', label: 'Express alone', env: { LEGACY_BRIDGE: 'none' } },
  { id: 'mw-0', label: 'behind the bridge, Hono app of 0 routes', env: { LEGACY_BRIDGE: 'middleware', LEGACY_ROUTES: '0', LEGACY_MIDDLEWARE: '0' } },
  { id: 'mw-200', label: 'behind the bridge, 200 routes', env: { LEGACY_BRIDGE: 'middleware', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '0' } },
  { id: 'mw-2000', label: 'behind the bridge, 2,000 routes', env: { LEGACY_BRIDGE: 'middleware', LEGACY_ROUTES: '2000', LEGACY_MIDDLEWARE: '0' } },
  { id: 'mw-200-global', label: 'behind the bridge, 200 routes + 2 global middleware', env: { LEGACY_BRIDGE: 'middleware', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '2' } },
  { id: 'mw-200-global-all', label: "behind the bridge, 200 routes + 2 global middleware, honoMiddleware: 'all'", env: { LEGACY_BRIDGE: 'middleware', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '2', LEGACY_HONO_MIDDLEWARE: 'all' } },
  { id: 'fd-200', label: "front door's fallback, 200 routes", env: { LEGACY_BRIDGE: 'front-door', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '0' } },
  { id: 'fd-200-global', label: "front door's fallback, 200 routes + 2 global middleware", env: { LEGACY_BRIDGE: 'front-door', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '2' } },
  { id: 'fd-200-global-routes', label: "front door's fallback, 200 routes + 2 global middleware, honoMiddleware: 'routes'", env: { LEGACY_BRIDGE: 'front-door', LEGACY_ROUTES: '200', LEGACY_MIDDLEWARE: '2', LEGACY_HONO_MIDDLEWARE: 'routes' } },
]
const ROUTE: RouteInfo = { path: '/legacy', method: 'GET', name: 'GET /legacy', driver: 'wrk' }

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}

async function start(variant: Variant): Promise<RunningServer> {
  Object.assign(process.env, { LEGACY_ROUTES: '', LEGACY_MIDDLEWARE: '', LEGACY_HONO_MIDDLEWARE: '' }, variant.env)
  return startServer('legacy')
}

async function main(): Promise<void> {
  const rounds = Number(flag('rounds', '5'))
  const duration = Number(flag('duration', '3'))
  const node = flag('node', process.env.BENCH_NODE ?? process.execPath)
  useNode(node)
  await buildServers({ skipPackageBuild: process.argv.includes('--no-build') })
  const samples: Record<string, Sample[]> = Object.fromEntries(VARIANTS.map((v) => [v.id, []]))
  const servers: Record<string, RunningServer> = {}
  try {
    for (const v of VARIANTS) {
      servers[v.id] = await start(v)
      await wrk(servers[v.id], ROUTE, 2, 50) // warm-up
    }
    for (let r = 0; r < rounds; r++) {
      // The order rotates each round, so no variant always runs first.
      for (let k = 0; k < VARIANTS.length; k++) {
        const v = VARIANTS[(k + r) % VARIANTS.length]
        samples[v.id].push(await wrk(servers[v.id], ROUTE, duration, 50))
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map(stopServer))
  }
  const alone = samples.alone.map((s) => s.cpuUs)
  const lines: string[] = []
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  lines.push(`Legacy tax, Node ${version}, ${cpus()[0]?.model ?? '?'} (${cpus().length} cores), ${new Date().toISOString()}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}  `)
  // No local paths in the results: the binary is named by its version line.
  const args = process.argv.slice(2).map((arg, i, all) => (all[i - 1] === '--node' ? `<node ${version.split('.')[0]} binary>` : arg))
  lines.push(`Command: \`npm run bench:legacy${args.length ? ' -- ' + args.join(' ') : ''}\`  `)
  lines.push(`${rounds} interleaved rounds of ${duration} s, wrk -t1 -c50, GET /legacy (an Express 5 route answering res.json())\n`)
  lines.push('| Express route | CPU µs/req | Express alone ÷ this (paired) | req/s | p99 ms |', '|---|---:|---:|---:|---:|')
  for (const v of VARIANTS) {
    const cpu = samples[v.id].map((s) => s.cpuUs)
    const ratio = v.id === 'alone' ? 1 : pairedCpuRatio(cpu, alone)
    const row = [v.label, median(cpu).toFixed(1), ratio.toFixed(2), Math.round(median(samples[v.id].map((s) => s.rps))).toLocaleString('en-US'), median(samples[v.id].map((s) => s.p99)).toFixed(2)]
    lines.push(`| ${row.join(' | ')} |`)
  }
  const major = version.slice(1).split('.')[0]
  const file = path.join(ROOT, 'bench', 'results', `legacy-tax-node${major}.md`)
  writeFileSync(file, lines.join('\n') + '\n')
  console.log('\n' + lines.join('\n') + `\n\n(written to ${path.relative(ROOT, file)})`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
