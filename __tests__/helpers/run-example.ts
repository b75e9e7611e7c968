import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(__dirname, '..', '..')

export interface RunningExample {
  child: ChildProcessWithoutNullStreams
  url: string
  /** Everything the process printed so far (stdout + stderr). */
  output(): string
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | NodeJS.Signals | null>
  stop(): Promise<number | NodeJS.Signals | null>
}

/**
 * Start `tsx <script>` the way `npm run example:<name>` does, with PORT=0, and wait for the
 * "listening on http://localhost:<port>" line every example server prints.
 */
export function runExample(script: string, env: Record<string, string> = {}, timeoutMs = 15000): Promise<RunningExample> {
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), script], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (out += chunk))
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal))
  })
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return new Promise<RunningExample>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not print its URL within ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const onData = () => {
      const match = /listening on (http:\/\/localhost:\d+)/.exec(out)
      if (!match) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      resolve({ child, url: match[1], output: () => out, exited, stop })
    }
    child.stdout.on('data', onData)
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with ${String(code)} before listening:\n${out}`))
    })
  })
}

/**
 * Start the example once for the enclosing describe() block (beforeAll) and stop it afterwards
 * (afterAll). Call the returned function inside a test to get the running example.
 */
export function useExample(script: string, env?: Record<string, string>): () => RunningExample {
  let running: RunningExample | undefined
  beforeAll(async () => {
    running = await runExample(script, env)
  })
  afterAll(async () => {
    await running?.stop()
  })
  return () => {
    if (!running) throw new Error(`${script} is not running`)
    return running
  }
}
