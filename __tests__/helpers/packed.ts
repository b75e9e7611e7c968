import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export const root = path.resolve(__dirname, '..', '..')

export interface Packed {
  /** The .tgz `npm pack` wrote. */
  tarball: string
  /** The tarball's `package/` folder, unpacked. */
  dir: string
  /** Paths inside the tarball, relative to `package/`. */
  files: string[]
}

// What goes into the tarball: a change to any of these means a new pack.
const INPUTS = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs']

function inputsKey(): string {
  const hash = createHash('sha256')
  const add = (file: string) => {
    if (!existsSync(file)) return
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  }
  INPUTS.forEach((file) => add(path.join(root, file)))
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else add(full)
    }
  }
  walk(path.join(root, 'src'))
  return hash.digest('hex').slice(0, 16)
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * Builds and packs the package once for the current sources (`npm pack`, which builds through
 * `prepack`) and unpacks it, as installing it would. Test files and jest workers share the result:
 * the first to claim the folder packs, the others wait for it.
 */
export function packed(timeoutMs = 180_000): Packed {
  const base = path.join(tmpdir(), 'efb-packed')
  const dir = path.join(base, inputsKey())
  const done = path.join(dir, 'done.json')
  const failed = path.join(dir, 'failed.txt')
  mkdirSync(base, { recursive: true })
  // A failed pack, or one whose process was killed, is retried by the next run.
  if (existsSync(dir) && !existsSync(done) && Date.now() - statSync(dir).mtimeMs > (existsSync(failed) ? 10_000 : timeoutMs)) {
    rmSync(dir, { recursive: true, force: true })
  }
  let mine = false
  try {
    mkdirSync(dir)
    mine = true
  } catch {
    // another test file or worker packs (or packed) these sources
  }
  if (mine) {
    pruneOld(base, dir)
    try {
      const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      const [info] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }]
      const tarball = path.join(dir, info.filename)
      const unpacked = path.join(dir, 'package')
      mkdirSync(unpacked)
      execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'])
      const result: Packed = { tarball, dir: unpacked, files: info.files.map((f) => f.path).sort() }
      writeFileSync(done, JSON.stringify(result))
      return result
    } catch (err) {
      writeFileSync(failed, String((err as { stderr?: string }).stderr || err))
      throw err
    }
  }
  const deadline = Date.now() + timeoutMs
  while (!existsSync(done)) {
    if (existsSync(failed)) throw new Error(`npm pack failed: ${readFileSync(failed, 'utf8')}`)
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${done}`)
    sleep(200)
  }
  return JSON.parse(readFileSync(done, 'utf8')) as Packed
}

// Packs of older sources, left by earlier runs (an hour gives any concurrent run time to finish).
function pruneOld(base: string, keep: string): void {
  for (const name of readdirSync(base)) {
    const full = path.join(base, name)
    if (full !== keep && Date.now() - statSync(full).mtimeMs > 3_600_000) rmSync(full, { recursive: true, force: true })
  }
}
