// Builds ESM (dist/esm) and CJS (dist/cjs), each with its own .d.ts, from the same sources.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
rmSync('dist', { recursive: true, force: true })
const run = (args) => execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', ...args], { stdio: 'inherit' })
run(['--outDir', 'dist/esm', '--module', 'ES2022', '--moduleResolution', 'Bundler'])
run(['--outDir', 'dist/cjs', '--module', 'CommonJS', '--moduleResolution', 'Node10', '--verbatimModuleSyntax', 'false'])
mkdirSync('dist/esm', { recursive: true })
writeFileSync('dist/esm/package.json', JSON.stringify({ type: 'module' }) + '\n')
writeFileSync('dist/cjs/package.json', JSON.stringify({ type: 'commonjs' }) + '\n')
