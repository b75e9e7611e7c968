/**
 * `npm run bench:profile -- <mode> <route> [--seconds 10] [--connections 50] [--top 30] [--no-build]`:
 * runs one bench server (bench/servers/<mode>.ts, as `npm run bench` does) under `node --cpu-prof`,
 * warms it up, loads it with wrk for the given time, stops it and prints the top self-time functions.
 * The profile is kept in bench/profiles/ (git ignores it).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { scriptArgs } from './config.js'
import { buildServers, ROOT } from './build.js'
import { summarise } from './cpuprofile-top.js'
import { MODES, ROUTES } from './modes.js'
import { startServer, stopServer } from './server-process.js'
import { wrk } from './wrk.js'

function parse(argv: string[]) {
  const { positional, num, build } = scriptArgs(argv)
  const [mode, route] = positional
  if (!MODES.some((x) => x.id === mode) || !ROUTES.some((r) => r.path === route)) {
    throw new Error(`usage: npm run bench:profile -- <mode> <route>\n  modes: ${MODES.map((x) => x.id).join(', ')}\n  routes: ${ROUTES.map((r) => r.path).join(', ')}`)
  }
  return { mode, route: ROUTES.find((r) => r.path === route)!, seconds: num('seconds', 10), connections: num('connections', 50), top: num('top', 30), build }
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2))
  await buildServers({ skipPackageBuild: !o.build })
  const dir = path.join(ROOT, 'bench', 'profiles', `${o.mode}${o.route.path.replace(/\//g, '_')}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const s = await startServer(o.mode, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] })
  try {
    await wrk(s, o.route, 3, o.connections)
    const sample = await wrk(s, o.route, o.seconds, o.connections)
    console.log(`${o.mode} ${o.route.method} ${o.route.path}: ${sample.cpuUs.toFixed(1)} CPU µs/req, ${Math.round(sample.rps)} req/s ` +
      `(the profiler's own cost included; wrk -c${o.connections}, ${o.seconds} s after a 3 s warm-up)`)
  } finally {
    await stopServer(s)
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  if (!file) throw new Error(`no profile written in ${dir}`)
  console.log(`profile: ${path.relative(ROOT, path.join(dir, file))} (whole process life, warm-up included)\n`)
  console.log(summarise(path.join(dir, file), o.top))
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
