import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Shared by every bench server entry (bench/servers/*.ts, compiled by bench/build.ts and run with
 * plain node): prints `{"port","pid"}` once listening on 127.0.0.1, exits cleanly on SIGTERM/SIGINT (so
 * --cpu-prof profiles get written), and answers `{cmd:'mem'}` over IPC (bench/sse-latency.ts) with
 * process.memoryUsage() after a full GC when started with --expose-gc.
 */
export function serveListener(listener: RequestListener): void {
  ready(createServer(listener).listen(0, '127.0.0.1'))
}

export function ready(server: Server): void {
  // Idle keep-alive connections must survive the memory measurement (Node's default is 5 s).
  server.keepAliveTimeout = 120_000
  const announce = () => {
    process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid }) + '\n')
  }
  if (server.listening) announce()
  else server.once('listening', announce)
  const exit = () => process.exit(0)
  process.on('SIGTERM', exit)
  process.on('SIGINT', exit)
  process.on('message', (msg: { id: number; cmd: string }) => {
    if (msg.cmd !== 'mem') return
    const gc = (globalThis as { gc?: () => void }).gc
    if (gc) for (let i = 0; i < 3; i++) gc()
    server.getConnections((_err, connections) => {
      process.send!({ id: msg.id, value: { ...process.memoryUsage(), connections, gc: gc !== undefined } })
    })
  })
}
