import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(__dirname, '..', '..')

export interface ChildServer {
  /** Port of each server the child listens with, by name. */
  ports: Record<string, number>
  /** Ask the child for something over IPC (`{ cmd }`); resolves with its answer. */
  ask<T>(cmd: string): Promise<T>
  output(): string
  stop(): Promise<void>
}

/**
 * Start `tsx <script>` with an IPC channel and wait for its `{ ready: ports }` message: for servers
 * that must be loaded with require hooks in place (OpenTelemetry's instrumentations), which jest's
 * own module system would bypass.
 */
export function startChildServer(script: string, env: Record<string, string> = {}, timeoutMs = 20000): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, [require.resolve('tsx/cli'), script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let out = ''
  child.stdout!.on('data', (chunk) => (out += chunk))
  child.stderr!.on('data', (chunk) => (out += chunk))
  let nextId = 0
  const pending = new Map<number, (value: unknown) => void>()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not start within ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with ${String(code)}:\n${out}`))
    })
    child.on('message', (message: { ready?: Record<string, number>; id?: number; result?: unknown }) => {
      if (message.ready !== undefined) {
        clearTimeout(timer)
        resolve({
          ports: message.ready,
          ask: <T>(cmd: string) =>
            new Promise<T>((done) => {
              const id = nextId++
              pending.set(id, done as (value: unknown) => void)
              child.send({ id, cmd })
            }),
          output: () => out,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
            return exited
          },
        })
      } else if (message.id !== undefined) {
        pending.get(message.id)?.(message.result)
        pending.delete(message.id)
      }
    })
  })
}
