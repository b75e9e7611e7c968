import cluster from 'node:cluster'
import os from 'node:os'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)

if (cluster.isPrimary) {
  const count = Math.max(1, Number(process.env.WORKERS) || os.availableParallelism())
  let listening = 0
  let shuttingDown = false
  // Workers that got as far as listening; one that exits before that (port in use…) is not re-forked.
  const listened = new Set<number>()

  for (let i = 0; i < count; i++) cluster.fork()

  cluster.on('listening', (worker, address) => {
    listened.add(worker.id)
    // Every worker shares the primary's listening socket (even with PORT=0): print the URL once.
    if (++listening === count) {
      console.log(`cluster example (primary ${process.pid}, ${count} workers) listening on http://localhost:${address.port}`)
    }
  })

  cluster.on('exit', (worker, code, signal) => {
    if (shuttingDown) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    if (!listened.has(worker.id)) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) before listening; not restarting it`)
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1)
      return
    }
    if (code !== 0 || signal !== null) {
      console.error(`worker ${worker.process.pid} died (${signal ?? code}); starting another`)
      cluster.fork()
    }
  })

  const shutdown = () => {
    if (shuttingDown) return
    shuttingDown = true
    // disconnect() lets each worker finish its open requests, then it exits.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.disconnect()
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
    // A worker stuck on a long request gets 10 s before it is killed.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
      process.exit(1)
    }, 10_000).unref()
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
} else {
  const server = createApp().listen(port)
  server.once('error', (err: NodeJS.ErrnoException) => {
    console.error(`worker ${process.pid}: cannot listen on port ${port}: ${err.code ?? err.message}`)
    process.exit(1)
  })
  // Ctrl-C reaches every process of the group: let the primary drive the shutdown, close quietly here.
  const close = () => server.close()
  process.on('SIGTERM', close)
  process.on('SIGINT', close)
}
