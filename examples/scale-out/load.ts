// npm run example:scale-out:load — starts the example (its own redis-server unless REDIS_URL is set),
// logs in, loads it with keep-alive requests that read the session, and does a rolling restart
// (SIGHUP to the primary) in the middle. Prints requests/s and every failure; no request is retried.
//   WORKERS (2), MODE (middleware|front-door), CONNECTIONS (32), STEADY_SECONDS (5: load before the restart)
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { login, runLoad, type LoadResult } from './load-client.js'

const connections = Number(process.env.CONNECTIONS) || 32
const steadySeconds = Number(process.env.STEADY_SECONDS) || 5
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..')
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'examples/scale-out/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: process.env.PORT ?? '0', WORKERS: process.env.WORKERS ?? '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (out += chunk))
  const waitFor = async (pattern: RegExp, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end; await delay(50)) {
      const match = pattern.exec(out)
      if (match) return match
    }
    throw new Error(`no ${pattern} within ${ms} ms:\n${out}`)
  }
  try {
    const [, primary] = await waitFor(/primary (\d+),/, 60_000)
    const [, url] = await waitFor(/listening on (http:\/\/localhost:\d+)/, 60_000)
    const cookie = await login(url!, 'load')
    const opts = { url: url!, cookie, user: 'load', connections }
    await runLoad(opts, delay(2000)) // warm-up: JIT, connections, Redis scripts
    const steady = await runLoad(opts, delay(steadySeconds * 1000))
    const restarted = waitFor(/rolling restart done/, 120_000)
    const during = runLoad(opts, restarted)
    await delay(500)
    process.kill(Number(primary), 'SIGHUP')
    const restart = await during
    report(steady, restart, out)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

function report(steady: LoadResult, restart: LoadResult, out: string): void {
  const line = (name: string, r: LoadResult) =>
    `${name}: ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${r.perSecond} req/s; ok ${r.ok}, failed ${r.failed}` +
    `${r.failed ? ' ' + JSON.stringify(r.failures) : ''}, session lost ${r.sessionLost}, Connection: close ${r.connectionClose}, retried 0; by worker ${JSON.stringify(r.byPid)}`
  console.log(`date ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`)
  console.log(`${process.env.WORKERS ?? 2} workers, ${process.env.MODE ?? 'middleware'} mode, ${connections} keep-alive connections`)
  console.log(line('steady', steady))
  console.log(line('during rolling restart', restart))
  console.log(out.split('\n').filter((l) => /rolling restart/.test(l)).join('\n'))
  if (restart.failed + restart.sessionLost + steady.failed + steady.sessionLost > 0) process.exitCode = 1
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
