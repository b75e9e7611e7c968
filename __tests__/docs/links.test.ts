import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { githubAnchors, linkTargets, markdownFiles, pageOf, prose, root, sidebarItems } from './markdown'

// Links between the README and the docs pages, read as Markdown (on GitHub, and by VitePress, whose
// own dead-link check runs in site.test.ts): every relative link reaches a file, every anchor a
// heading, every page is in the navigation, and nothing names a path of a developer's machine.

const REPO = /^https:\/\/github\.com\/express-fetch-bridge\/express-fetch-bridge\/(?:blob|tree)\/main\/([^#?]+)(?:#(.+))?$/
const files = markdownFiles()
/** Pages another issue writes (sidebar.json "issue"): until they land, links to them wait. */
const planned = sidebarItems()
  .filter((i) => i.issue !== undefined && !existsSync(path.join(root, pageOf(i.link))))
  .map((i) => pageOf(i.link))

/** [file, anchor] a link reaches, relative to the root; undefined for links out of the repository. */
function resolve(from: string, target: string): [string, string | undefined] | undefined {
  const repo = REPO.exec(target)
  if (repo) return [decodeURIComponent(repo[1]).replace(/\/$/, ''), repo[2]]
  if (/^[a-z]+:/i.test(target)) return undefined
  const [file, anchor] = target.split('#')
  if (file === '') return [from, anchor]
  if (file.startsWith('/')) throw new Error(`${from}: site-absolute link ${target}: use a relative one`)
  return [path.posix.join(path.posix.dirname(from), file).replace(/\/$/, ''), anchor]
}

const links = files.flatMap((from) => linkTargets(prose(from)).map((target) => ({ from, target, to: resolve(from, target) })))

it('finds links in every page but the home page', () => {
  for (const file of files.filter((f) => f !== 'docs/index.md')) expect([file, linkTargets(prose(file)).length > 0]).toEqual([file, true])
})

it('links only to files that exist (or pages planned in sidebar.json)', () => {
  const broken = links.filter(({ to }) => to !== undefined && !existsSync(path.join(root, to[0])) && !planned.includes(to[0]))
  expect(broken.map(({ from, target }) => `${from} → ${target}`)).toEqual([])
})

it('links only to headings that exist', () => {
  const broken = links.filter(({ to }) => {
    if (to === undefined || to[1] === undefined || !to[0].endsWith('.md')) return false
    const file = path.join(root, to[0])
    if (!existsSync(file) || statSync(file).isDirectory()) return false
    return !githubAnchors(readFileSync(file, 'utf8')).has(decodeURIComponent(to[1]))
  })
  expect(broken.map(({ from, target }) => `${from} → ${target}`)).toEqual([])
})

it('lists every page in the navigation, and the navigation only pages that exist or are planned', () => {
  const listed = sidebarItems().map((i) => pageOf(i.link))
  const pages = files.filter((f) => f.startsWith('docs/') && f !== 'docs/index.md')
  expect(pages.filter((p) => !listed.includes(p))).toEqual([])
  const missing = sidebarItems().filter((i) => i.issue === undefined && !i.link.startsWith('/api/') && !existsSync(path.join(root, pageOf(i.link))))
  expect(missing).toEqual([])
})

it('names no path of a developer machine', () => {
  const machine = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|/(?:work|tmp|home)/`)
  const found = files.filter((f) => machine.test(readFileSync(path.join(root, f), 'utf8')))
  expect(found).toEqual([])
})

describe('the README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8')

  it('stays short', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(16 * 1024)
  })

  it('reaches testing, the front door, deployment and common mistakes in one click', () => {
    const reached = links.filter(({ from }) => from === 'README.md').map(({ to }) => to?.[0])
    for (const page of ['docs/guide/testing.md', 'docs/guide/front-door.md', 'docs/deploy/index.md', 'docs/guide/common-mistakes.md']) {
      expect([page, reached.includes(page)]).toEqual([page, true])
    }
  })

  it('states the test command CI runs', () => {
    const ci = readFileSync(path.join(root, '.ci', 'run'), 'utf8')
    const command = /^npm run (test:[\w-]+)/m.exec(ci)?.[1]
    expect(command).toBe('test:node-matrix')
    expect(readme).toContain(`CI runs \`npm run ${command}\``)
    expect(readme).toMatch(/^npm ci && npm test\b/m)
    expect(readme).toMatch(/^npm ci && npm start\b/m)
  })
})
