import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// The CLI runs as the package's `bin` does: the ESM build under node, in a folder inside
// node_modules (as when installed), on fixture server modules.
const root = path.resolve(__dirname, '..', '..')
const fixtures = path.join(__dirname, '..', 'fixtures', 'migration')
let out: string
let cli: string

beforeAll(() => {
  const cache = path.join(root, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  out = mkdtempSync(path.join(cache, 'efb-cli-'))
  const tsc = require.resolve('typescript/bin/tsc')
  return new Promise<void>((resolve, reject) => {
    execFile(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(out, 'esm'), '--module', 'ES2022', '--moduleResolution', 'Bundler', '--declaration', 'false', '--declarationMap', 'false'], { cwd: root }, (err, stdout) => {
      if (err) return reject(new Error(`build failed: ${stdout}`))
      writeFileSync(path.join(out, 'esm', 'package.json'), '{"type":"module"}\n')
      cli = path.join(out, 'esm', 'cli.js')
      resolve()
    })
  })
}, 120_000)
afterAll(() => rmSync(out, { recursive: true, force: true }))

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: fixtures, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr })
    })
  })
}

describe('express-fetch-bridge routes', () => {
  it('is the package bin', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
    expect(pkg.bin).toEqual({ 'express-fetch-bridge': './dist/esm/cli.js' })
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
  })

  it('prints the table for a CommonJS module exporting { app, hono } (Express 4)', async () => {
    const { code, stdout } = await run('routes', './server.cjs')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^ {2}partly-shadowed +GET +\/users +GET \/users .*still reached by GET \/users\/, GET \/USERS/m)
    expect(stdout).toMatch(/^ {2}express +POST +\/users/m)
    expect(stdout).toMatch(/^ {2}\/users +GET +POST$/m)
  })

  it('takes --express-routing for a bridge it cannot see: the same route is then shadowed', async () => {
    const { code, stdout } = await run('routes', 'server.mjs', '--json', '--express-routing')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report.bridges).toEqual([{ path: '/', mountPath: 'strip', detected: false, expressRouting: true }])
    expect(report.express).toEqual([expect.objectContaining({ method: 'GET', path: '/orders/:id', status: 'shadowed' })])
  })

  it('prints JSON for an ES module exporting `express` and `hono` (Express 5, router under a prefix)', async () => {
    const { code, stdout } = await run('routes', 'server.mjs', '--json')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    // Hono takes /orders/:id in its exact form; other case and a trailing slash still reach Express.
    expect(report.express).toEqual([expect.objectContaining({ method: 'GET', path: '/orders/:id', status: 'partly-shadowed' })])
    expect(report.summary).toMatchObject({ shadowed: 0, partlyShadowed: 1, moved: 1 })
  })

  it('loads a TypeScript module through tsx and finds the bridge mounted in it', async () => {
    const { code, stdout } = await run('routes', path.join(fixtures, 'server.ts'), '--json')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report.bridges).toEqual([{ path: '/api', mountPath: 'strip', detected: true, expressRouting: false }])
    expect(report.express.map((r: { path: string; status: string }) => [r.path, r.status])).toEqual([
      ['/api/users/:id', 'partly-shadowed'],
      ['/health', 'express'],
    ])
  })

  it('shows the routes under a shadow trial and their verdict', async () => {
    const { code, stdout } = await run('routes', path.join(fixtures, 'server-shadow.ts'))
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Shadow runs and canary \(this process\)\n {2}VERDICT +METHOD +ROUTE .*\n {2}collecting +GET +\/users\/:id +0 +- +- /m)
    expect(stdout).not.toMatch(/\/health +0/)
  })

  it('says so on stderr when --express-routing or --mount-path meet a bridge found in the app (its own options are used)', async () => {
    const { code, stdout, stderr } = await run('routes', path.join(fixtures, 'server.ts'), '--json', '--express-routing', '--mount-path', 'keep')
    expect(code).toBe(0)
    expect(JSON.parse(stdout).bridges).toEqual([{ path: '/api', mountPath: 'strip', detected: true, expressRouting: false }])
    expect(stderr).toMatch(
      /^express-fetch-bridge: --express-routing and --mount-path ignored: the report uses the options of the bridge found in the app, at \/api \(mountPath strip, expressRouting off\)\..*--prefix/m,
    )
    // A bridge the report assumes takes them, without a notice.
    expect((await run('routes', 'server.mjs', '--json', '--express-routing')).stderr).toBe('')
  })

  it('takes --prefix for a bridge it cannot see', async () => {
    const { stdout } = await run('routes', 'server.cjs', '--json', '--prefix', '/api')
    expect(JSON.parse(stdout).bridges).toEqual([{ path: '/api', mountPath: 'strip', detected: false, expressRouting: false }])
  })

  it('explains bad usage and a module without apps, with a non-zero exit', async () => {
    const usage = await run('routes')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/missing the server module[\s\S]*Usage: express-fetch-bridge routes/)
    const empty = path.join(out, 'empty.cjs')
    writeFileSync(empty, 'module.exports = { nothing: true }\n')
    const none = await run('routes', empty)
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/exports no Express app/)
    const missing = await run('routes', './no-such-file.js')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/Cannot find module/)
  })
})
