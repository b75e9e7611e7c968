import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { packed, root, type Packed } from '../helpers/packed'

// The README is read on the registry's page, where only the tarball exists: every link must be
// absolute, an anchor of this README, or a file the tarball contains.

const REPO = /^https:\/\/(?:github\.com\/express-fetch-bridge\/express-fetch-bridge\/(?:blob|tree)\/main|raw\.githubusercontent\.com\/express-fetch-bridge\/express-fetch-bridge\/main)\/([^#?]+)/
const CITED_DIRS = /^(?:__tests__|bench|examples|scripts)\//

let pack: Packed
let prose: string

/** GitHub's heading ids: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const ids = new Set<string>()
  for (const [, heading] of markdown.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const text = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    ids.add(n === 0 ? base : `${base}-${n}`)
  }
  return ids
}

beforeAll(() => {
  pack = packed()
  const readme = readFileSync(path.join(pack.dir, 'README.md'), 'utf8')
  prose = readme.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
}, 200_000)

const targets = () => [
  ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
  ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]),
  ...[...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
]

describe('the published README', () => {
  it('has links', () => {
    expect(targets().length).toBeGreaterThan(10)
  })

  it('links only to absolute URLs, its own headings, or files in the tarball', () => {
    const ids = anchors(prose)
    const broken = targets().filter((target) => {
      if (/^(?:https:|mailto:)/.test(target)) return false
      if (target.startsWith('#')) return !ids.has(decodeURIComponent(target.slice(1)))
      const file = path.posix.normalize(target.split(/[?#]/)[0]).replace(/\/$/, '')
      return !pack.files.some((f) => f === file || f.startsWith(`${file}/`))
    })
    expect(broken).toEqual([])
  })

  it('links into the repository only to paths that exist there', () => {
    const missing = targets()
      .map((target) => REPO.exec(target)?.[1])
      .filter((file): file is string => file !== undefined && !existsSync(path.join(root, decodeURIComponent(file))))
    expect(missing).toEqual([])
  })

  it('cites repository files the tarball lacks only as links', () => {
    const bare = [...prose.matchAll(/(\[?)`([^`\n]+)`/g)]
      .filter(([, bracket, code]) => bracket === '' && CITED_DIRS.test(code) && !pack.files.includes(code))
      .map(([, , code]) => code)
    expect(bare).toEqual([])
  })
})
