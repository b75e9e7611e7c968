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

// Declaration emit drops the @ts-ignore above the optional peers' type imports (express, hono): put it back, so
// projects without @types/express (and without skipLibCheck) still compile; the types fall back then.
// The declaration map gets an empty line there too, so "Go to definition" stays on the right line.
for (const dir of ['dist/esm', 'dist/cjs']) {
  restoreTsIgnore(`${dir}/bridge/options.d.ts`, /^import type \{[^}]*\} from 'express';$/)
  restoreTsIgnore(`${dir}/express-middleware/express-middleware.d.ts`, /^import type \{[^}]*\} from 'hono';$/)
  restoreTsIgnore(`${dir}/websocket/websocket-types.d.ts`, /^import type \{[^}]*\} from 'hono';$/)
}

/** Put `// @ts-ignore -- optional peer` back above the import matching `pattern`, keeping the map aligned. */
function restoreTsIgnore(file, pattern) {
  const lines = readFileSync(file, 'utf8').split('\n')
  const at = lines.findIndex((line) => pattern.test(line))
  if (at < 0) throw new Error(`build: optional peer type import not found in ${file}`)
  lines.splice(at, 0, '// @ts-ignore -- optional peer')
  writeFileSync(file, lines.join('\n'))
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'))
  const groups = map.mappings.split(';')
  groups.splice(at, 0, '')
  map.mappings = groups.join(';')
  writeFileSync(`${file}.map`, JSON.stringify(map))
}
