import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// Builds the package, packs it and loads the tarball from a fresh project, as a user would.
const root = path.resolve(__dirname, '..')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
let dir: string
let project: string

const node = (file: string) =>
  execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', timeout: 30_000 }).trim()

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'efb-pack-'))
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'pipe' })
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const tarball = path.join(dir, JSON.parse(out)[0].filename)
  project = path.join(dir, 'project')
  const target = path.join(project, 'node_modules', 'express-fetch-bridge')
  mkdirSync(target, { recursive: true })
  // Installing = unpacking the tarball's package/ folder (no network, no registry).
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'])
  writeFileSync(path.join(project, 'package.json'), '{"name":"consumer","private":true}\n')
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Serves one request through the bridge and prints what the client saw.
const serveOnce = (load: string) => `
const http = require('node:http')
;(async () => {
  const { fetchBridge, LightResponse } = ${load}
  const bridge = fetchBridge(() => new Response('hi from ' + typeof LightResponse))
  const server = http.createServer((req, res) => bridge(req, res)).listen(0, async () => {
    const res = await fetch('http://127.0.0.1:' + server.address().port + '/')
    console.log(JSON.stringify({ status: res.status, length: res.headers.get('content-length'), text: await res.text() }))
    server.close()
  })
})()
`

describe('the packed package', () => {
  test('contains the builds and the sources, but no tests', () => {
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: path.join(project, 'node_modules', 'express-fetch-bridge'), encoding: 'utf8' })
    expect(files).toContain('./dist/esm/index.js')
    expect(files).toContain('./dist/cjs/index.js')
    expect(files).toContain('./dist/esm/index.d.ts')
    expect(files).toContain('./dist/cjs/index.d.ts')
    expect(files).not.toContain('__tests__')
  })

  test('require() works and serves a request', () => {
    writeFileSync(path.join(project, 'cjs.cjs'), serveOnce("require('express-fetch-bridge')"))
    expect(JSON.parse(node('cjs.cjs'))).toEqual({ status: 200, length: '16', text: 'hi from function' })
  })

  test('import() works and serves a request', () => {
    writeFileSync(path.join(project, 'esm.mjs'), serveOnce("await import('express-fetch-bridge')").replace("const http = require('node:http')", "import http from 'node:http'"))
    expect(JSON.parse(node('esm.mjs'))).toEqual({ status: 200, length: '16', text: 'hi from function' })
  })

  test('both builds loaded in one process share one Response class and fast path', () => {
    writeFileSync(
      path.join(project, 'dual.mjs'),
      `import { createRequire } from 'node:module'
import http from 'node:http'
const require = createRequire(import.meta.url)
const esm = await import('express-fetch-bridge')
esm.installGlobalResponse()
const cjs = require('express-fetch-bridge')
const same = esm.LightResponse === cjs.LightResponse && esm.OriginalResponse === cjs.OriginalResponse
const bridge = cjs.fetchBridge(() => new Response('dual'))
const server = http.createServer((req, res) => bridge(req, res)).listen(0, async () => {
  const res = await fetch('http://127.0.0.1:' + server.address().port + '/')
  console.log(JSON.stringify({ same, platform: esm.OriginalResponse.name, length: res.headers.get('content-length'), text: await res.text() }))
  server.close()
})
`,
    )
    expect(JSON.parse(node('dual.mjs'))).toEqual({ same: true, platform: 'Response', length: '4', text: 'dual' })
  })

  test('the exports map gives types for both import and require', () => {
    const exp = pkg.exports['.']
    expect(exp.import.types).toBe('./dist/esm/index.d.ts')
    expect(exp.require.types).toBe('./dist/cjs/index.d.ts')
    expect(Object.keys(exp.import)[0]).toBe('types')
    expect(Object.keys(exp.require)[0]).toBe('types')
    const types = readFileSync(path.join(project, 'node_modules', 'express-fetch-bridge', 'dist', 'esm', 'index.d.ts'), 'utf8')
    expect(types).toMatch(/fetchBridge/)
    expect(types).toMatch(/HttpBindings/)
  })

  test('no runtime dependencies', () => {
    expect(pkg.dependencies ?? {}).toEqual({})
  })
})
