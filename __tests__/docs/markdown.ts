import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

// The Markdown a reader sees: the README and the docs site's pages (not the generated API reference).
// One reader of it for the docs tests: fenced blocks, the marker comment before a block, links.

export const root = path.resolve(__dirname, '..', '..')
const docsDir = path.join(root, 'docs')

/** README.md and every page under docs/ except the generated API reference, relative to the root. */
export function markdownFiles(): string[] {
  const out = ['README.md']
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'api' && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(full)
      } else if (entry.name.endsWith('.md')) out.push(path.relative(root, full))
    }
  }
  walk(docsDir)
  return out.sort()
}

export interface Block {
  file: string
  /** 1-based line of the block's first code line. */
  line: number
  lang: string
  code: string
  /** The HTML comment on the line before the fence (`<!-- run: GET /x 200 body -->` → `run: GET /x 200 body`). */
  marker: string | undefined
}

/** Fenced code blocks, indented ones (inside list items) included, with their indentation removed. */
export function blocks(file: string): Block[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\w*)[^`]*$/.exec(lines[i])
    if (!open) continue
    const indent = open[1]
    const start = i + 1
    while (i + 1 < lines.length && lines[++i].trim() !== '```');
    const marker = /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[start - 2] ?? '')?.[1]
    const code = lines
      .slice(start, i)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join('\n')
    out.push({ file, line: start + 1, lang: open[2], code, marker })
  }
  return out
}

/** The text outside code blocks and inline code. */
export function prose(file: string): string {
  return readFileSync(path.join(root, file), 'utf8')
    .replace(/^ *```[^\n]*\n[\s\S]*?^ *```$/gm, '')
    .replace(/`[^`\n]*`/g, '')
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function githubAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const ids = new Set<string>()
  const text = markdown.replace(/^ *```[^\n]*\n[\s\S]*?^ *```$/gm, '')
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const plain = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const base = plain.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    ids.add(n === 0 ? base : `${base}-${n}`)
  }
  return ids
}

/** Link targets in Markdown prose: inline links, reference definitions, src/href attributes. */
export function linkTargets(text: string): string[] {
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
  ]
}

interface SidebarItem {
  text: string
  link: string
  issue?: number
}

/** The site's navigation (docs/.vitepress/sidebar.json). */
export function sidebarItems(): SidebarItem[] {
  const json = JSON.parse(readFileSync(path.join(docsDir, '.vitepress', 'sidebar.json'), 'utf8')) as {
    groups: { items: SidebarItem[] }[]
  }
  return json.groups.flatMap((g) => g.items)
}

/** The Markdown file of a site link (`/deploy/` → docs/deploy/index.md, `/guide/x` → docs/guide/x.md). */
export function pageOf(link: string): string {
  return path.join('docs', link.endsWith('/') ? `${link}index.md` : `${link}.md`)
}
