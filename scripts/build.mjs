// Builds ESM (dist/esm) and CJS (dist/cjs), each with its own .d.ts, from the same sources.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

// Declaration emit drops the @ts-ignore above the optional `express` type import: put it back, so
// projects without @types/express (and without skipLibCheck) still compile; the types fall back then.
// Same for the optional `hono` type import of expressMiddleware().
for (const dir of ['dist/esm', 'dist/cjs']) {
  for (const [name, peer] of [['options', 'express'], ['express-middleware', 'hono']]) {
    const file = `${dir}/${name}.d.ts`
    const text = readFileSync(file, 'utf8')
    const fixed = text.replace(new RegExp(`^(import type \\{[^}]*\\} from '${peer}';)$`, 'm'), '// @ts-ignore -- optional peer\n$1')
    if (fixed === text) throw new Error(`build: ${peer} type import not found in ${file}`)
    writeFileSync(file, fixed)
  }
}
