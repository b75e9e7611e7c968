import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'
import { pageOf, root, sidebarItems } from './markdown'

// The docs site as readers get it: `npm run docs:build` (TypeDoc's API reference, then VitePress,
// whose dead-link check fails the build) once per jest run, into a temporary folder; then the built
// HTML's links, and the site in headless Chromium (Debian's /usr/bin/chromium, never a download):
// pages render, the sidebar navigates, search finds, and no console error on the way. Without
// chromium the browser part is skipped with the reason; REQUIRE_CHROMIUM=1 (CI) makes that a failure.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

let out: string
let built: Promise<{ ok: boolean; log: string }>

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })

beforeAll(() => {
  out = mkdtempSync(path.join(os.tmpdir(), 'docs-site-'))
  built = (async () => {
    try {
      await run([path.join(path.dirname(require.resolve('typedoc/package.json')), 'bin', 'typedoc'), '--options', 'docs/typedoc.json', '--logLevel', 'Warn', '--treatWarningsAsErrors'])
      const vitepress = path.join(path.dirname(require.resolve('vitepress/package.json')), 'bin', 'vitepress.js')
      const { stdout, stderr } = await run([vitepress, 'build', 'docs', '--outDir', out])
      return { ok: true, log: stdout + stderr }
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string }
      return { ok: false, log: `${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}` }
    }
  })()
})
afterAll(async () => {
  await built
  rmSync(out, { recursive: true, force: true })
})

/** The build, for the tests that read it: a failed build fails them too (its log is in the first test). */
async function site(): Promise<void> {
  if (!(await built).ok) throw new Error('the site did not build')
}

/** The built page of a site link. */
const htmlOf = (link: string) => path.join(out, link.endsWith('/') ? `${link}index.html` : `${link}.html`)

function htmlFiles(dir = out): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? htmlFiles(full) : name.endsWith('.html') ? [full] : []
  })
}

describe('npm run docs:build', () => {
  it('builds: API reference without warnings, no dead links', async () => {
    const { ok, log } = await built
    expect({ ok, log: ok ? '' : log }).toEqual({ ok: true, log: '' })
  }, 240_000)

  it('has a page for every sidebar entry, and the API reference', async () => {
    await site()
    const items = sidebarItems().filter((i) => i.issue === undefined || existsSync(path.join(root, pageOf(i.link))))
    expect(items.filter((i) => !existsSync(htmlOf(i.link))).map((i) => i.link)).toEqual([])
    expect(existsSync(path.join(out, 'api', 'index', 'functions', 'fetchBridge.html'))).toBe(true)
    expect(readFileSync(path.join(out, 'api', 'index', 'functions', 'fetchBridge.html'), 'utf8')).toContain('front-door')
  })

  it('links only to pages and headings that exist', async () => {
    await site()
    const ids = new Map<string, Set<string>>()
    const idsOf = (file: string) => {
      if (!ids.has(file)) ids.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])))
      return ids.get(file)!
    }
    // Pages another issue writes (sidebar.json "issue") are linked before they land.
    const planned = sidebarItems()
      .filter((i) => i.issue !== undefined && !existsSync(path.join(root, pageOf(i.link))))
      .map((i) => htmlOf(i.link))
    const broken: string[] = []
    for (const file of htmlFiles()) {
      const html = readFileSync(file, 'utf8')
      for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        if (/^(?:[a-z]+:|\/\/)/i.test(href)) continue
        const [target, hash] = href.split('#')
        const base = target.startsWith('/') ? path.join(out, target) : path.resolve(path.dirname(file), target)
        const page = target === '' ? file : base.endsWith('/') || base === out ? path.join(base, 'index.html') : base
        if (planned.includes(page)) continue
        if (!existsSync(page)) broken.push(`${path.relative(out, file)} → ${href}`)
        else if (hash && page.endsWith('.html') && !idsOf(page).has(decodeURIComponent(hash))) broken.push(`${path.relative(out, file)} → ${href}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('names no path of the machine it was built on', async () => {
    await site()
    expect(htmlFiles().filter((f) => readFileSync(f, 'utf8').includes(root))).toEqual([])
  })
})

const haveChromium = existsSync(CHROMIUM)
const reason = `${CHROMIUM} not found (apt-get install -y chromium)`
if (!haveChromium && process.env.REQUIRE_CHROMIUM !== '1') console.log(`skipping "the built site in Chromium": ${reason}`)

;(haveChromium || process.env.REQUIRE_CHROMIUM === '1' ? describe : describe.skip)('the built site in Chromium', () => {
  let server: http.Server
  let origin: string
  let browser: Browser | undefined
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`REQUIRE_CHROMIUM=1 but ${reason}`)
    await site()
    // The site as a static host serves it: files, folder index.html, 404.html for the rest.
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      let file = path.join(out, decodeURIComponent(url.pathname))
      if (file.endsWith(path.sep) || (existsSync(file) && statSync(file).isDirectory())) file = path.join(file, 'index.html')
      const found = file.startsWith(out) && existsSync(file)
      const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' }[path.extname(file)]
      res.writeHead(found ? 200 : 404, { 'content-type': type ?? 'application/octet-stream' })
      res.end(readFileSync(found ? file : path.join(out, '404.html')))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
    page = await browser.newPage()
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`)
    })
    page.on('pageerror', (err) => errors.push(`page error: ${err.message}`))
    // A prefetch the next navigation cancels is not a failure.
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`)
    })
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`)
    })
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  })

  it('renders the home page and every sidebar page', async () => {
    await page.goto(`${origin}/`)
    await expect(page.locator('.VPHero .name').innerText()).resolves.toContain('express-fetch-bridge')
    for (const item of sidebarItems().filter((i) => existsSync(htmlOf(i.link)))) {
      await page.goto(`${origin}${item.link.endsWith('/') ? item.link : `${item.link}.html`}`)
      const h1 = (await page.locator('.vp-doc h1').first().innerText()).trim()
      expect([item.link, h1.length > 0]).toEqual([item.link, true])
    }
    expect(errors).toEqual([])
  }, 120_000)

  it('navigates from the home page through the sidebar', async () => {
    await page.goto(`${origin}/`)
    await page.getByRole('link', { name: 'Get started' }).first().click()
    await page.waitForURL(/\/guide\/getting-started/)
    await page.locator('.VPSidebar a', { hasText: 'Testing' }).first().click()
    await page.waitForURL(/\/guide\/testing/)
    // The URL changes before the client router renders the page: wait for its heading, then read it.
    await page.locator('.vp-doc h1', { hasText: 'Testing' }).first().waitFor({ timeout: 10_000 })
    await expect(page.locator('.vp-doc h1').first().innerText()).resolves.toContain('Testing')
    await page.locator('.VPSidebar a', { hasText: 'Deploying' }).first().click()
    await page.waitForURL(/\/deploy\//)
    // The URL changes before the client router renders the page: wait for its heading, then read it.
    await page.locator('.vp-doc h1', { hasText: 'Deploying' }).first().waitFor({ timeout: 10_000 })
    await expect(page.locator('.vp-doc h1').first().innerText()).resolves.toContain('Deploying')
    expect(errors).toEqual([])
  }, 60_000)

  it('finds pages with the search box and opens the one chosen', async () => {
    await page.goto(`${origin}/guide/getting-started.html`)
    await page.locator('.VPNavBarSearch button').click()
    const input = page.locator('.VPLocalSearchBox input')
    await input.fill('graceful shutdown')
    const first = page.locator('.VPLocalSearchBox .results .result').first()
    await first.waitFor({ timeout: 10_000 })
    await expect(first.innerText()).resolves.toMatch(/graceful shutdown/i)
    await input.press('Enter')
    await page.waitForURL(/\/deploy\/.*#graceful-shutdown/)
    expect(errors).toEqual([])
  }, 60_000)
})
