/** Starting and stopping one compiled bench server (bench/build.ts), pinned to CPU 0. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { createInterface } from 'node:readline'
import { ROOT, serverFile } from './build.js'
import { procStatTicks } from './stats.js'

export const CAN_PIN = cpus().length >= 2 && existsSync('/usr/bin/taskset') && process.env.BENCH_NO_PIN !== '1'

/** `taskset -c <cpu> cmd args` when pinning is possible. */
export function pinned(cpu: number, cmd: string, args: string[]): [string, string[]] {
  return CAN_PIN ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args]
}

/** The node binary servers run on: `--node` / BENCH_NODE, else the one running the bench. */
let serverNode = process.env.BENCH_NODE || process.execPath
export function useNode(binary: string): void {
  serverNode = binary
}

export interface RunningServer {
  mode: string
  port: number
  pid: number
  child: ChildProcess
}

export interface StartOptions {
  /** Extra node flags, e.g. --cpu-prof or --expose-gc. */
  nodeArgs?: string[]
  /** Open an IPC channel (the servers answer {cmd:'mem'} on it). */
  ipc?: boolean
}

export function startServer(mode: string, options: StartOptions = {}): Promise<RunningServer> {
  const [cmd, args] = pinned(0, serverNode, [...(options.nodeArgs ?? []), serverFile(mode)])
  const stdio: ('ignore' | 'pipe' | 'inherit' | 'ipc')[] = ['ignore', 'pipe', 'inherit']
  if (options.ipc) stdio.push('ipc')
  // taskset execs node, so the pid is the server's own; NODE_ENV as in production.
  const child = spawn(cmd, args, { cwd: ROOT, stdio, env: { ...process.env, NODE_ENV: 'production' } })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode}: server did not start within 30 s`)), 30_000)
    child.once('exit', (code) => reject(new Error(`${mode}: server exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      child.removeAllListeners('exit')
      const { port, pid } = JSON.parse(line) as { port: number; pid: number }
      resolve({ mode, port, pid, child })
    })
  })
}

export function stopServer(s: RunningServer): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve()
    s.child.once('exit', () => resolve())
    s.child.kill('SIGTERM')
  })
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/** The process's CPU time (user + system, all threads) in microseconds, from /proc (Linux). */
export function cpuMicros(pid: number): number {
  return (procStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1e6) / CLOCK_TICKS
}

let nextId = 0
/** Ask a server started with `ipc: true` for its memory (after a full GC under --expose-gc). */
export function serverMemory(s: RunningServer): Promise<NodeJS.MemoryUsage & { connections: number; gc: boolean }> {
  const id = ++nextId
  return new Promise((resolve) => {
    const onMessage = (msg: { id?: number; value: NodeJS.MemoryUsage & { connections: number; gc: boolean } }) => {
      if (msg.id !== id) return
      s.child.off('message', onMessage)
      resolve(msg.value)
    }
    s.child.on('message', onMessage)
    s.child.send({ id, cmd: 'mem' })
  })
}
