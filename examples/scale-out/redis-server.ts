import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** A `redis-server` process this code started, on a port of its own, with its data in a temp dir. */
export interface RedisServer {
  url: string
  port: number
  dir: string
  pid: number
  /** Stop it (SIGTERM: an AOF-persisted server writes its data first). Idempotent. */
  stop(): Promise<void>
  /** Start it again on the same port and dir (after stop()). */
  restart(): Promise<void>
  /** stop() and remove the dir. */
  dispose(): Promise<void>
}

export interface RedisServerOptions {
  /** Keep the data across stop()/restart() (append-only file, fsync on every write). Default false. */
  persist?: boolean
  /** How to start it; default `redis-server` from PATH. */
  binary?: string
}

/** Whether a `redis-server` binary can be run here. */
export function hasRedisServer(binary = 'redis-server'): boolean {
  return spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

function launch(binary: string, args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not start within 10 s:\n${out}`))
    }, 10_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (!/Ready to accept connections/.test(out)) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.stdout?.resume()
      child.stderr?.resume()
      resolve(child)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited (${signal ?? code}) before it was ready:\n${out}`))
    })
  })
}

/**
 * Start `redis-server --port N --dir TMP --save ''` on a free loopback port, as a user would by hand,
 * and resolve once it accepts connections.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? 'redis-server'
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-out-redis-'))
  const persistence = options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']
  let child: ChildProcess | undefined
  let port = 0
  const argsFor = (p: number) => ['--port', String(p), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence]
  // The free port may be taken between the probe and redis-server's bind: try a few.
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort()
    try {
      child = await launch(binary, argsFor(port))
    } catch (err) {
      if (attempt === 2) throw err
    }
  }
  let current: ChildProcess = child
  const stop = async () => {
    if (current.exitCode !== null || current.signalCode !== null) return
    await new Promise<void>((resolve) => {
      current.once('exit', () => resolve())
      current.kill('SIGTERM')
    })
  }
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    pid: current.pid ?? -1,
    stop,
    async restart() {
      await stop()
      current = await launch(binary, argsFor(port))
      server.pid = current.pid ?? -1
    },
    async dispose() {
      await stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}
