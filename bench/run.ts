/**
 * `npm run bench`: builds the package (dist/) and one plain-node server per mode (bench/build.ts),
 * starts every mode in its own process pinned to CPU 0, checks every answer, warms each server up on
 * each route, then runs interleaved rounds of wrk pinned to CPU 1 (A B C … A B C …, the order rotating
 * each round). The judge is the server's own CPU time per request (/proc utime + stime over the timed
 * run ÷ requests wrk completed); req/s and p99 are reported next to it. Options: bench/config.ts.
 */
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { buildServers, ROOT } from './build.js'
import { check } from './check.js'
import { readConfig } from './config.js'
import { bodyBytes, bulkRequests, RATIOS } from './modes.js'
import { writeResults, type BenchResults } from './report.js'
import { CAN_PIN, startServer, stopServer, useNode, type RunningServer } from './server-process.js'
import { median, pairedCpuRatio } from './stats.js'
import { wrk, type Sample } from './wrk.js'

const config = readConfig()

function machine(): BenchResults['machine'] {
  const cpuinfo = spawnSync('grep', ['-m1', 'model name', '/proc/cpuinfo'], { encoding: 'utf8' }).stdout
  const v = spawnSync('wrk', ['-v'], { encoding: 'utf8' })
  return {
    cpu: cpuinfo.split(':')[1]?.trim() || cpus()[0]?.model || 'unknown',
    cores: cpus().length,
    node: config.nodeVersion,
    platform: `${process.platform} ${process.arch}`,
    wrk: (v.stdout + v.stderr).split('\n')[0].replace(/\s*\[.*$/, '').trim(),
    pinned: CAN_PIN,
    load: loadavg().map((l) => l.toFixed(2)).join(' '),
  }
}

/** The command as a reader would type it: the --node binary named by its line, not by a path of this machine. */
function commandLine(): string {
  const major = config.nodeVersion.slice(1).split('.')[0]
  const args = process.argv
    .slice(2)
    .map((a, i, all) => (all[i - 1] === '--node' ? `<node ${major} binary>` : a.replace(/^--node=.*/, `--node=<node ${major} binary>`)))
  return `npm run bench${args.length ? ' -- ' + args.join(' ') : ''}`
}

async function main(): Promise<void> {
  if (spawnSync('wrk', ['-v']).error) throw new Error('wrk not found: install it with `apt-get install -y wrk`')
  if (!CAN_PIN) console.warn('warning: not pinning (needs 2 CPUs and taskset); figures will be noisier')
  const { modes, routes } = config
  const seconds = modes.length * routes.length * (config.warmup + config.rounds * config.duration)
  console.log(`${modes.length} modes × ${routes.length} routes, ${config.rounds} rounds of ${config.duration} s, ` +
    `${config.warmup} s warm-up, wrk -c${config.connections}: about ${Math.ceil(seconds / 60)} min of load`)
  useNode(config.node)
  const m = machine()
  await buildServers({ skipPackageBuild: !config.build })

  const servers: RunningServer[] = []
  process.on('SIGINT', () => {
    for (const s of servers) s.child.kill('SIGTERM')
    process.exit(130)
  })
  try {
    for (const mode of modes) servers.push(await startServer(mode.id))
    const notes = new Set<string>()
    for (const s of servers) for (const r of routes) await check(s, r, notes)
    console.log('correctness: every mode answered every route as expected')

    for (const r of routes) for (const s of servers) await wrk(s, r, config.warmup, config.connections, true)
    console.log('warm-up done')

    const samples: Record<string, Record<string, Sample[]>> = {}
    for (const r of routes) samples[r.path] = Object.fromEntries(servers.map((s) => [s.mode, []]))
    for (let round = 0; round < config.rounds; round++) {
      for (const r of routes) {
        for (let i = 0; i < servers.length; i++) {
          const s = servers[(i + round) % servers.length]
          samples[r.path][s.mode].push(await wrk(s, r, config.duration, config.connections))
        }
      }
      console.log(`round ${round + 1}/${config.rounds} done`)
    }

    const measured = (id: string) => modes.some((x) => x.id === id)
    const results: BenchResults = {
      date: new Date().toISOString(),
      command: commandLine(),
      machine: m,
      config: { rounds: config.rounds, duration: config.duration, warmup: config.warmup, connections: config.connections },
      modes: modes.map(({ id, label, group }) => ({ id, label, group })),
      routes: routes.map((r) => ({ path: r.path, method: r.method, name: r.name, ...(bodyBytes(r) > 0 ? { bytes: bodyBytes(r), requests: bulkRequests(r) } : {}) })),
      ratios: RATIOS.filter((x) => measured(x.mode) && measured(x.reference)).map((x) => ({
        ...x,
        cpu: Object.fromEntries(routes.map((r) => {
          const byMode = samples[r.path]
          return [r.path, pairedCpuRatio(byMode[x.mode].map((s) => s.cpuUs), byMode[x.reference].map((s) => s.cpuUs))]
        })),
        rps: Object.fromEntries(routes.map((r) => {
          const byMode = samples[r.path]
          return [r.path, median(byMode[x.mode].map((s, k) => s.rps / byMode[x.reference][k].rps))]
        })),
      })),
      results: {},
      notes: [...notes],
    }
    for (const r of routes) {
      results.results[r.path] = {}
      for (const mode of modes) {
        const rounds = samples[r.path][mode.id]
        results.results[r.path][mode.id] = {
          cpuUs: median(rounds.map((s) => s.cpuUs)),
          rps: median(rounds.map((s) => s.rps)),
          p99: median(rounds.map((s) => s.p99)),
          rounds,
        }
      }
    }
    // --readme refreshes the marked results block of the performance page (opt-in).
    const readme = config.readme ? path.join(ROOT, 'docs', 'performance.md') : undefined
    const written = writeResults(path.join(ROOT, 'bench', 'results'), config.out, results, readme)
    console.log('\n' + written.markdown)
    console.log(`written: ${written.files.map((f) => path.relative(ROOT, f)).join(', ')}`)
  } finally {
    await Promise.all(servers.map(stopServer))
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err)
  process.exit(1)
})
