import cluster, { type Worker } from 'node:cluster'
import { once } from 'node:events'
import { createWorker, type Mode, type WorkerOptions } from './app.js'
import { startRedisServer, type RedisServer } from './redis-server.js'

// npm run example:scale-out   WORKERS=n (default 2), MODE=middleware|front-door, REDIS_URL=redis://…
// (default: a redis-server of its own on a free port), PORT (default 3000), RATE_LIMIT (per minute).
// kill -HUP <primary pid>: rolling restart, one worker at a time.
const port = Number(process.env.PORT ?? 3000)
const mode: Mode = process.env.MODE === 'front-door' ? 'front-door' : 'middleware'

function primary(): void {
  const count = Math.max(1, Number(process.env.WORKERS) || 2)
  let redis: RedisServer | undefined
  let env: Record<string, string> = {}
  const listened = new Set<number>()
  const retiring = new Set<number>()
  let shuttingDown = false
  let restarting = false

  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)
  const pids = () => live().map((w) => w.process.pid).join(', ')

  const start = async () => {
    redis = process.env.REDIS_URL ? undefined : await startRedisServer()
    const redisUrl = process.env.REDIS_URL ?? redis!.url
    env = { REDIS_URL: redisUrl, MODE: mode }
    for (let i = 0; i < count; i++) cluster.fork(env)
    let first = true
    cluster.on('listening', (worker, address) => {
      listened.add(worker.id)
      if (first && listened.size === count) {
        first = false
        const own = redis ? `own redis-server pid ${redis.pid}` : 'REDIS_URL'
        console.log(`scale-out example (primary ${process.pid}, ${count} workers, ${mode} mode, ${own} ${redisUrl})`)
        console.log(`  listening on http://localhost:${address.port}   rolling restart: kill -HUP ${process.pid}`)
      }
    })
  }

  // Replace each worker in turn: the new one listens before the old one stops accepting, so there is
  // always a worker to take connections, and the old one finishes what it has (see graceful.ts).
  const rollingRestart = async () => {
    if (restarting || shuttingDown) return
    restarting = true
    console.log(`rolling restart of ${pids()}`)
    for (const old of live()) {
      const fresh = cluster.fork(env)
      const [event] = await Promise.race([once(fresh, 'listening').then(() => ['listening']), once(fresh, 'exit').then(() => ['exit'])])
      if (event === 'exit') {
        console.error(`replacement worker exited before listening; rolling restart stopped, ${old.process.pid} kept`)
        break
      }
      retiring.add(old.id)
      const exited = once(old, 'exit')
      old.send('drain')
      await exited
    }
    restarting = false
    console.log(`rolling restart done: workers ${pids()}`)
  }

  cluster.on('exit', (worker, code, signal) => {
    if (shuttingDown) {
      if (live().length === 0) void redis?.stop().then(() => process.exit(0))
      return
    }
    if (retiring.delete(worker.id)) return
    if (!listened.has(worker.id)) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) before listening; not restarting it`)
      if (live().length === 0) void redis?.stop().then(() => process.exit(1))
      return
    }
    console.error(`worker ${worker.process.pid} died (${signal ?? code}); starting another`)
    cluster.fork(env)
  })

  const shutdown = () => {
    if (shuttingDown) return
    shuttingDown = true
    for (const worker of live()) worker.send('drain')
    if (live().length === 0) void (redis?.stop() ?? Promise.resolve()).then(() => process.exit(0))
    setTimeout(() => {
      for (const worker of live()) worker.process.kill('SIGKILL')
      void (redis?.stop() ?? Promise.resolve()).then(() => process.exit(1))
    }, 15_000).unref()
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
  process.on('SIGHUP', () => void rollingRestart())
  start().catch((err: unknown) => {
    console.error('cannot start:', err)
    process.exit(1)
  })
}

function worker(): void {
  const options: WorkerOptions = { mode, redisUrl: process.env.REDIS_URL ?? '' }
  if (process.env.RATE_LIMIT) options.rateLimit = Number(process.env.RATE_LIMIT)
  if (process.env.REDIS_PREFIX) options.prefix = process.env.REDIS_PREFIX
  createWorker(options)
    .then(({ server, drain }) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        console.error(`worker ${process.pid}: cannot listen on port ${port}: ${err.code ?? err.message}`)
        process.exit(1)
      })
      server.listen(port)
      const stop = () => void drain().then(() => process.exit(0))
      process.on('message', (message) => message === 'drain' && stop())
      process.on('SIGTERM', stop) // a process manager signalling the worker itself
      process.on('SIGINT', () => {}) // Ctrl-C reaches the whole group: the primary drives it
    })
    .catch((err: unknown) => {
      console.error(`worker ${process.pid}: cannot start:`, err)
      process.exit(1)
    })
}

if (cluster.isPrimary) primary()
else worker()
