import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { blocks as blocksOf, markdownFiles, root, type Block } from './markdown'

// Every ```ts and ```js block of the README and the docs pages type-checks, as a user's file would:
// strict, with exactOptionalPropertyTypes, no DOM lib, the package imported by its name (mapped to
// src/ here; the package tests check the same names against the packed tarball). Each block is its
// own module; the names a block uses without defining (the `app` and `hono` of the surrounding text, a
// session `store`…) are declared once, below, as the docs say they are. A block that is deliberately
// wrong (a mistake shown as such) is preceded by `<!-- no-check: why -->`.

const found = markdownFiles()
  .flatMap(blocksOf)
  .filter((b) => (b.lang === 'ts' || b.lang === 'js') && !b.marker?.startsWith('no-check'))
// ES modules as users write them (top-level await, `import` conditions); a ```js block is CommonJS.
const fileOf = (b: Block) => path.join('blocks', `${b.file.replace(/\W+/g, '-')}-${b.line}.${b.lang === 'js' ? 'cjs' : 'ts'}`)

const CONTEXT = `import type express from 'express'
import type { Hono as HonoClass } from 'hono'
declare global {
  /** The legacy Express app of the surrounding text. */
  const app: express.Express
  const expressApp: express.Express
  const legacyApp: express.Express
  const legacyRoutes: express.Router
  const errorHandler: express.ErrorRequestHandler
  /** The Hono app of the surrounding text. */
  const hono: HonoClass<any>
  const Hono: typeof import('hono').Hono
  const express: typeof import('express')
  const SocketIOServer: typeof import('socket.io').Server
  const createMiddleware: typeof import('hono/factory').createMiddleware
  const getCookie: typeof import('hono/cookie').getCookie
  const session: typeof import('express-session')
  // Not passport's own types: they declare Express.Request.user, which a README block declares itself.
  const passport: { initialize(): express.RequestHandler; session(): express.RequestHandler }
  const fetchBridge: typeof import('express-fetch-bridge').fetchBridge
  const upgradeWebSocket: typeof import('express-fetch-bridge/websocket').upgradeWebSocket
  const store: import('express-session').Store
  const secret: string
  /** TLS key and certificate, as read from files. */
  const key: string
  const cert: string
}
export {}
`

const JS_PRELUDE =
  "const app = /** @type {import('express').Express} */ (/** @type {unknown} */ (undefined))\n" +
  "const hono = /** @type {import('hono').Hono} */ (/** @type {unknown} */ (undefined))\n"

let dir: string
let output: Promise<string>

beforeAll(() => {
  dir = mkdtempSync(path.join(root, 'node_modules', '.docs-blocks-'))
  mkdirSync(path.join(dir, 'blocks'))
  writeFileSync(path.join(dir, 'context.d.ts'), CONTEXT)
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n')
  const files = found.map((b) => {
    const file = fileOf(b)
    // A block without import/export is a script; make each one a module of its own, except CommonJS.
    const module = /^\s*(import|export)\b/m.test(b.code) || b.lang === 'js' ? '' : '\nexport {}\n'
    // A CommonJS block exports names of the text as its own: declare them in the file.
    const prelude = b.lang === 'js' ? JS_PRELUDE : ''
    writeFileSync(path.join(dir, file), prelude + b.code + module)
    return file
  })
  const compilerOptions = {
    target: 'ES2022',
    module: 'Preserve',
    moduleResolution: 'Bundler',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    esModuleInterop: true,
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    noEmit: true,
    baseUrl: root,
    paths: {
      'express-fetch-bridge': ['src/index.ts'],
      'express-fetch-bridge/websocket': ['src/websocket.ts'],
    },
    typeRoots: [path.join(root, 'node_modules', '@types')],
  }
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['context.d.ts', ...files] }, null, 2))
  const tsc = require.resolve('typescript/bin/tsc')
  output = promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { encoding: 'utf8', cwd: root }).then(
    ({ stdout }) => stdout,
    (err: { stdout?: string; message: string }) => err.stdout || err.message,
  )
})
afterAll(async () => {
  await output
  rmSync(dir, { recursive: true, force: true })
})

it('finds the code blocks of the README and the docs, and the check itself reports nothing outside them', async () => {
  expect(found.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(5)
  expect(found.length).toBeGreaterThanOrEqual(30)
  const elsewhere = (await output).split('\n').filter((l) => /error TS\d+/.test(l) && !l.includes('blocks/'))
  expect(elsewhere).toEqual([])
}, 120_000)

it.each(found.map((b) => [`${b.file}:${b.line}`, b] as const))('the block at %s type-checks', async (_at, b) => {
  const errors = (await output).split('\n').filter((l) => l.includes(fileOf(b)))
  expect(errors).toEqual([])
}, 120_000)
