import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

// Every ```ts and ```js block of the README type-checks, as a user's file would: strict, with
// exactOptionalPropertyTypes, no DOM lib, the package imported by its name (mapped to src/ here; the
// package tests check the same names against the packed tarball). Each block is its own module; the
// names a block uses without defining (the `app` and `hono` of the surrounding text, a session
// `store`…) are declared once, below, as what the README says they are.

const root = path.resolve(__dirname, '..', '..')
const readme = readFileSync(path.join(root, 'README.md'), 'utf8')

interface Block {
  line: number
  lang: 'ts' | 'js'
  code: string
}

function blocks(): Block[] {
  const out: Block[] = []
  const lines = readme.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|js)\s*$/.exec(lines[i])
    if (!open) continue
    const start = i + 1
    while (i + 1 < lines.length && lines[++i] !== '```');
    out.push({ line: start, lang: open[1] as 'ts' | 'js', code: lines.slice(start, i).join('\n') })
  }
  return out
}

const CONTEXT = `import type express from 'express'
import type { Hono as HonoClass } from 'hono'
declare global {
  /** The legacy Express app of the surrounding text. */
  const app: express.Express
  const expressApp: express.Express
  const legacyApp: express.Express
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
}
export {}
`

const JS_PRELUDE =
  "const app = /** @type {import('express').Express} */ (/** @type {unknown} */ (undefined))\n" +
  "const hono = /** @type {import('hono').Hono} */ (/** @type {unknown} */ (undefined))\n"

let dir: string
let output: Promise<string>
const found = blocks()

beforeAll(() => {
  dir = mkdtempSync(path.join(root, 'node_modules', '.readme-blocks-'))
  mkdirSync(path.join(dir, 'blocks'))
  writeFileSync(path.join(dir, 'context.d.ts'), CONTEXT)
  const files = found.map((b) => {
    const file = path.join('blocks', `line-${b.line}.${b.lang}`)
    // A block without import/export is a script; make each one a module of its own, except CommonJS.
    const module = /^\s*(import|export)\b/m.test(b.code) || b.lang === 'js' ? '' : '\nexport {}\n'
    // A CommonJS block exports names of the text as its own: declare them in the file.
    const prelude = b.lang === 'js' ? JS_PRELUDE : ''
    writeFileSync(path.join(dir, file), prelude + b.code + module)
    return file
  })
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
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

it('finds the README code blocks, and the check itself reports nothing outside them', async () => {
  expect(found.length).toBeGreaterThanOrEqual(10)
  const elsewhere = (await output).split('\n').filter((l) => /error TS\d+/.test(l) && !l.includes('blocks/line-'))
  expect(elsewhere).toEqual([])
}, 120_000)

it.each(found.map((b) => [b.line, b] as const))('the block at README line %i type-checks', async (_line, b) => {
  const errors = (await output).split('\n').filter((l) => l.includes(`line-${b.line}.${b.lang}`))
  expect(errors).toEqual([])
}, 120_000)
