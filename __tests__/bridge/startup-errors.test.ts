import { spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'

// On a busy port every example (and `npm start`, which runs examples/basic) must say why it cannot
// start and exit non-zero — not print "listening" and exit 0; the cluster primary must not re-fork
// workers that never listened.

const root = path.resolve(__dirname, '..', '..')

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), script], { cwd: root, env: { ...process.env, ...env } })
    let out = ''
    child.stdout.on('data', (c) => (out += c))
    child.stderr.on('data', (c) => (out += c))
    // A process that keeps running (re-forking forever, or listening after all) fails the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}

let busy: net.Server
let port: number
beforeAll(async () => {
  busy = net.createServer()
  await new Promise<void>((resolve) => busy.listen(0, resolve))
  port = (busy.address() as net.AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())))

it.each(['basic', 'incremental-migration', 'shared-auth', 'streaming', 'testing'])(
  'examples/%s on a busy port: reports EADDRINUSE and exits 1',
  async (name) => {
    const { code, out } = await run(`examples/${name}/server.ts`, { PORT: String(port) })
    expect(out).toContain('EADDRINUSE')
    expect(out).not.toContain('listening on')
    expect(code).toBe(1)
  },
  30000,
)

it('examples/cluster on a busy port: each worker fails once, none is re-forked, the primary exits 1', async () => {
  const { code, out } = await run('examples/cluster/server.ts', { PORT: String(port), WORKERS: '2' })
  expect(out.match(/cannot listen on port \d+: EADDRINUSE/g)).toHaveLength(2)
  expect(out.match(/before listening; not restarting it/g)).toHaveLength(2)
  expect(out).not.toContain('starting another')
  expect(out).not.toContain('listening on')
  expect(code).toBe(1)
}, 30000)
