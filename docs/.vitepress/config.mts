// The docs site (VitePress): `npm run docs:dev`, `npm run docs:build`. Navigation is sidebar.json;
// the API reference under /api/ is generated from the TSDoc by TypeDoc (typedoc.json) before each run.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { defineConfig, type DefaultTheme } from 'vitepress'

interface Item {
  text: string
  link: string
  issue?: number
}
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const sidebarFile = JSON.parse(readFileSync(path.join(docs, '.vitepress', 'sidebar.json'), 'utf8')) as {
  groups: { text: string; items: Item[] }[]
}

/** The Markdown file a link names (`/deploy/` → deploy/index.md, `/guide/x` → guide/x.md). */
const pageFile = (link: string) => path.join(docs, link.endsWith('/') ? `${link}index.md` : `${link}.md`)
// A page another issue writes is listed once it exists; until then links to it are not dead.
const planned = sidebarFile.groups.flatMap((g) => g.items).filter((i) => i.issue !== undefined && !existsSync(pageFile(i.link)))
const sidebar: DefaultTheme.SidebarItem[] = sidebarFile.groups.map((group) => ({
  text: group.text,
  items: group.items.filter((i) => !planned.includes(i)).map(({ text, link }) => ({ text, link })),
}))

const base = process.env.DOCS_BASE ?? '/'

export default defineConfig({
  title: 'express-fetch-bridge',
  description: 'Host Hono (and any Fetch-API app) inside Express, Connect or node:http, and migrate one route at a time.',
  base,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: `${base}favicon.svg` }]],
  lastUpdated: false,
  ignoreDeadLinks: planned.map((i) => new RegExp(`^(?:\\.{1,2}/)*(?:.*/)?${path.posix.basename(i.link)}(?:\\.md)?(?:#.*)?$`)),
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Deploy', link: '/deploy/' },
      { text: 'API', link: '/api/' },
      { text: 'Changelog', link: 'https://github.com/express-fetch-bridge/express-fetch-bridge/blob/main/CHANGELOG.md' },
    ],
    sidebar,
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: 'https://github.com/express-fetch-bridge/express-fetch-bridge' }],
    editLink: {
      pattern: 'https://github.com/express-fetch-bridge/express-fetch-bridge/edit/main/docs/:path',
    },
    outline: [2, 3],
  },
})
