import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

// The architecture, checked: src/ has one folder per capability, and a module may import only from
// its own folder and the folders this table allows (ARCHITECTURE.md shows the same table). The entry
// points (index.ts, websocket.ts, cli.ts) may import anything; nothing may import an entry point.

const ALLOWED: Record<string, string[]> = {
  core: [],
  request: ['core'],
  response: ['core', 'request'],
  http2: ['core', 'request', 'response'],
  bridge: ['core', 'request', 'response', 'http2'],
  'express-middleware': ['core', 'request', 'response', 'bridge', 'http2'],
  websocket: ['core', 'request', 'response', 'bridge'],
  migration: ['core', 'bridge'],
}

const src = path.resolve(__dirname, '..', '..', 'src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : []
  })
}

const folderOf = (file: string) => {
  const rel = path.relative(src, file)
  return rel.includes(path.sep) ? rel.split(path.sep)[0] : '(entry)'
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => path.resolve(path.dirname(file), m[1]))
}

it('every folder of src/ is in the table, and every module is in a folder or an entry point', () => {
  const folders = readdirSync(src).filter((name) => statSync(path.join(src, name)).isDirectory())
  expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort())
  const entries = readdirSync(src).filter((name) => name.endsWith('.ts'))
  expect(entries.sort()).toEqual(['cli.ts', 'index.ts', 'websocket.ts'])
})

it('no module imports across folders in a direction the table does not allow', () => {
  const wrong: string[] = []
  for (const file of files(src)) {
    const from = folderOf(file)
    for (const target of imports(file)) {
      const to = folderOf(target.replace(/\.js$/, '.ts'))
      if (to === from || from === '(entry)') continue
      if (to === '(entry)' || !ALLOWED[from].includes(to)) wrong.push(`${path.relative(src, file)} → ${path.relative(src, target)}`)
    }
  }
  expect(wrong).toEqual([])
})

it('the check sees imports: a made-up import against the table is caught', () => {
  // What the rule would say of core/errors.ts importing the response folder.
  expect(ALLOWED[folderOf(path.join(src, 'core', 'errors.ts'))].includes(folderOf(path.join(src, 'response', 'response.ts')))).toBe(false)
  expect(imports(path.join(src, 'bridge', 'bridge.ts')).length).toBeGreaterThan(5)
})

/** Imports that load code at run time (`import type` and `type`-only lists load nothing). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^import\s+(?!type\b)([^'"]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)]
    .filter((m) => !/^\{\s*(type\s+\w+(\s+as\s+\w+)?\s*,?\s*)+\}$/.test(m[1]))
    .map((m) => path.resolve(path.dirname(file), m[2]).replace(/\.js$/, '.ts'))
}

function loadedBy(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen
  seen.add(entry)
  for (const target of runtimeImports(entry)) loadedBy(target, seen)
  return seen
}

it('the migration report (and so the CLI) loads no request, response or bridge-runtime code', () => {
  const loaded = [...loadedBy(path.join(src, 'cli.ts'))].map((file) => path.relative(src, file))
  expect(loaded).toContain(path.join('migration', 'migration-report.ts'))
  expect(loaded.filter((file) => /^(request|response|express-middleware|websocket)\//.test(file) || file === path.join('bridge', 'bridge.ts'))).toEqual([])
})
