import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { packed, root, type Packed } from '../helpers/packed'

// Loads the packed tarball from a fresh project, as a user would.
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
let pack: Packed
let project: string

const node = (file: string) =>
  execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', timeout: 30_000 }).trim()

beforeAll(() => {
  pack = packed()
  project = mkdtempSync(path.join(tmpdir(), 'efb-project-'))
  mkdirSync(path.join(project, 'node_modules'))
  cpSync(pack.dir, path.join(project, 'node_modules', 'express-fetch-bridge'), { recursive: true })
  writeFileSync(path.join(project, 'package.json'), '{"name":"consumer","private":true}\n')
}, 200_000)
afterAll(() => rmSync(project, { recursive: true, force: true }))

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

// An ES module that has both builds at hand: `esm` imported, then (after `between`) `cjs` required.
const bothBuilds = (body: string, between = '') => `import { createRequire } from 'node:module'
import http from 'node:http'
const require = createRequire(import.meta.url)
const esm = await import('express-fetch-bridge')
${between}
const cjs = require('express-fetch-bridge')
${body}`

describe('the packed package', () => {
  it('contains the builds and the sources, but no tests', () => {
    expect(pack.files).toEqual(expect.arrayContaining(['dist/esm/index.js', 'dist/cjs/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.d.ts', 'src/index.ts']))
    expect(pack.files.filter((file) => file.includes('__tests__'))).toEqual([])
  })

  it('require() works and serves a request', () => {
    writeFileSync(path.join(project, 'cjs.cjs'), serveOnce("require('express-fetch-bridge')"))
    expect(JSON.parse(node('cjs.cjs'))).toEqual({ status: 200, length: '16', text: 'hi from function' })
  })

  it('import() works and serves a request', () => {
    writeFileSync(path.join(project, 'esm.mjs'), serveOnce("await import('express-fetch-bridge')").replace("const http = require('node:http')", "import http from 'node:http'"))
    expect(JSON.parse(node('esm.mjs'))).toEqual({ status: 200, length: '16', text: 'hi from function' })
  })

  it('both builds loaded in one process share one Response class and fast path', () => {
    writeFileSync(
      path.join(project, 'dual.mjs'),
      bothBuilds(`const same = esm.LightResponse === cjs.LightResponse && esm.OriginalResponse === cjs.OriginalResponse
const bridge = cjs.fetchBridge(() => new Response('dual'))
const server = http.createServer((req, res) => bridge(req, res)).listen(0, async () => {
  const res = await fetch('http://127.0.0.1:' + server.address().port + '/')
  console.log(JSON.stringify({ same, platform: esm.OriginalResponse.name, length: res.headers.get('content-length'), text: await res.text() }))
  server.close()
})
`, 'esm.installGlobalResponse()'),
    )
    expect(JSON.parse(node('dual.mjs'))).toEqual({ same: true, platform: 'Response', length: '4', text: 'dual' })
  })

  it('both builds loaded in one process export the same classes: instanceof holds across them', () => {
    writeFileSync(
      path.join(project, 'classes.mjs'),
      bothBuilds(`const isClass = (v) => typeof v === 'function' && /^class\\b/.test(Function.prototype.toString.call(v))
const classes = Object.keys(esm).filter((name) => isClass(esm[name]) || isClass(cjs[name])).sort()
const differing = classes.filter((name) => esm[name] !== cjs[name])
// An error built by the CJS build must be recognised by code written against the ESM build.
const err = new cjs.BadRequestError('bad')
console.log(JSON.stringify({ classes, differing, name: err.name, esm: err instanceof esm.BadRequestError, cjs: err instanceof cjs.BadRequestError }))
`),
    )
    const result = JSON.parse(node('classes.mjs'))
    expect(result.classes).toEqual(expect.arrayContaining(['BadRequestError', 'LightResponse']))
    expect(result).toEqual({ classes: result.classes, differing: [], name: 'BadRequestError', esm: true, cjs: true })
  })

  it('the exports map gives types for both import and require', () => {
    const exp = pkg.exports['.']
    expect(exp.import.types).toBe('./dist/esm/index.d.ts')
    expect(exp.require.types).toBe('./dist/cjs/index.d.ts')
    expect(Object.keys(exp.import)[0]).toBe('types')
    expect(Object.keys(exp.require)[0]).toBe('types')
    const types = readFileSync(path.join(pack.dir, 'dist', 'esm', 'index.d.ts'), 'utf8')
    expect(types).toMatch(/fetchBridge/)
    expect(types).toMatch(/HttpBindings/)
  })

  it('no runtime dependencies', () => {
    expect(pkg.dependencies ?? {}).toEqual({})
  })
})
