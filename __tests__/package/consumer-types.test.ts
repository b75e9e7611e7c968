import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { packed, root } from '../helpers/packed'

// Type-checks a consumer of the packed tarball in a Node-only project: no DOM lib, no skipLibCheck,
// so every shipped declaration is checked. One project per module resolution mode.

const CONSUMER = `import express from 'express'
import { Hono } from 'hono'
import { BadRequestError, fetchBridge, installGlobalResponse, LightResponse, OriginalResponse } from 'express-fetch-bridge'
import type {
  BridgeHandler,
  ExecutionContextLike,
  ExpressBindings,
  FallbackHandler,
  FetchApp,
  FetchBridgeOptions,
  HttpBindings,
  NextFunction,
} from 'express-fetch-bridge'
import { expressMiddleware, migrationReport, RESPONSE_ALREADY_SENT } from 'express-fetch-bridge'
import { attachWebSockets, upgradeWebSocket, type WebSocketServerLike } from 'express-fetch-bridge/websocket'
import { WebSocketServer } from 'ws'

const hono = new Hono<{ Bindings: ExpressBindings }>()
hono.get('/me', (c) => c.text(c.env.incoming.get('user-agent') ?? c.env.outgoing.statusCode.toString()))

const options: FetchBridgeOptions<express.Request, express.Response> = {
  overrideGlobalObjects: false,
  fallthrough: true,
  mountPath: 'keep',
  origin: 'https://api.example.com',
  env: (req) => ({ requestId: req.get('x-request-id') }),
}
const app = express()
const bridge: BridgeHandler = fetchBridge(hono, options)
app.use('/api', bridge)
app.use((err: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (err instanceof BadRequestError) res.status(err.status).send(err.message)
  else next(err)
})

const plain: FetchApp = (request: Request, env: HttpBindings, ctx: ExecutionContextLike) => {
  ctx.waitUntil(Promise.resolve())
  return new LightResponse(request.url + env.incoming.url, { status: 200, headers: { 'content-type': 'text/plain' } })
}
const fallback: FallbackHandler = app
const next: NextFunction = (err) => console.error(err)
fetchBridge(plain, { fallback }).listen(0).close()
fetchBridge({ fetch: (request: Request) => Response.json({ url: request.url }) })

installGlobalResponse()
const light = new LightResponse('hi', { headers: [['x-a', '1']] })
const response: Response = light
const original: Response = new OriginalResponse(null, { status: 204 })
const status: number = response.status + original.status
const error: Error = new BadRequestError('bad Host')
void [next, status, error, light.headers.get('x-a'), light.text()]

hono.use(expressMiddleware((_req: express.Request, _res: express.Response, next: express.NextFunction) => next()))
hono.get('/gone', () => RESPONSE_ALREADY_SENT)
hono.get('/ws', upgradeWebSocket(() => ({
  onMessage(evt, ws) { if (typeof evt.data === 'string') ws.send(evt.data) },
  onClose(evt) { void [evt.code, evt.reason, evt.wasClean] },
})))
const wss = {} as WebSocketServerLike
const server = app.listen(0)
attachWebSockets(server, bridge, { wss }).detach()
// The README's own call, with ws's types, under exactOptionalPropertyTypes; options read from the
// environment may be undefined.
attachWebSockets(server, bridge, { wss: new WebSocketServer({ noServer: true }), mountedAt: process.env.WS_MOUNT }).detach()
fetchBridge(hono, { origin: process.env.PUBLIC_ORIGIN, onDispatch: undefined, drain: { maxMs: undefined } })
void expressMiddleware({ app: undefined, vars: undefined })
server.close()
void migrationReport(app, hono).format()
`

interface Mode {
  name: string
  type: 'module' | 'commonjs'
  module: string
  moduleResolution: string
}
const modes: Mode[] = [
  { name: 'node16 ESM', type: 'module', module: 'node16', moduleResolution: 'node16' },
  { name: 'node16 CJS', type: 'commonjs', module: 'node16', moduleResolution: 'node16' },
  { name: 'bundler', type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  { name: 'node10', type: 'commonjs', module: 'commonjs', moduleResolution: 'node10' },
]

const tsc = require.resolve('typescript/bin/tsc')
const projectOf = (mode: Mode) => path.join(dir, mode.name.replace(/\W+/g, '-'))
let dir: string
// tsc's output per mode; the four checks run side by side (each is mostly CPU-bound checking).
let outputs: Map<string, Promise<string>>

beforeAll(() => {
  const pack = packed()
  dir = mkdtempSync(path.join(tmpdir(), 'efb-consumers-'))
  // One node_modules for every project: the unpacked tarball, the repo's peers and their types.
  const modules = path.join(dir, 'node_modules')
  mkdirSync(modules)
  // A copy, not a link: the package must find the peers' types from where it is installed.
  cpSync(pack.dir, path.join(modules, 'express-fetch-bridge'), { recursive: true })
  for (const name of ['@types', 'express', 'hono', 'ws']) symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name), 'dir')
  for (const mode of modes) {
    const project = projectOf(mode)
    mkdirSync(project)
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: mode.type }))
    const compilerOptions = {
      lib: ['ES2022'],
      types: ['node'],
      skipLibCheck: false,
      strict: true,
      exactOptionalPropertyTypes: true,
      esModuleInterop: true,
      noEmit: true,
      target: 'ES2022',
      module: mode.module,
      moduleResolution: mode.moduleResolution,
    }
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2))
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER)
  }
  const check = (mode: Mode) =>
    promisify(execFile)(process.execPath, [tsc, '-p', projectOf(mode), '--pretty', 'false', '--listFiles'], { encoding: 'utf8' }).then(
      ({ stdout }) => stdout,
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    )
  outputs = new Map(modes.map((mode) => [mode.name, check(mode)]))
}, 200_000)
afterAll(async () => {
  await Promise.all(outputs?.values() ?? [])
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 200_000)

describe('a Node-only TypeScript consumer of the packed package (lib ES2022, types node, skipLibCheck false, exactOptionalPropertyTypes)', () => {
  it.each(modes.map((mode) => [mode.name, mode] as const))('type-checks under %s resolution', async (_name, mode) => {
    const stdout = await outputs.get(mode.name)!
    const errors = stdout.split('\n').filter((line) => /error TS\d+/.test(line))
    expect(errors).toEqual([])
    // Checked against the declarations this mode resolves to, not some other copy.
    const build = mode.moduleResolution === 'node10' || mode.type === 'commonjs' ? 'cjs' : 'esm'
    expect(stdout).toMatch(new RegExp(`node_modules/express-fetch-bridge/dist/${build}/index\\.d\\.ts`))
    expect(stdout).not.toMatch(/lib\.dom\.d\.ts/)
  }, 180_000)
})

// The declarations must also hold under the newest @types/node a user gets with `npm i -D @types/node`
// (dev dependency `@types/node-newest`): its web-stream types differ from Node 20's (25 changed them).
describe('a consumer on the newest @types/node', () => {
  it('type-checks the package declarations (nodenext, skipLibCheck false)', async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'efb-newest-types-'))
    try {
      const modules = path.join(project, 'node_modules')
      mkdirSync(path.join(modules, '@types'), { recursive: true })
      cpSync(packed().dir, path.join(modules, 'express-fetch-bridge'), { recursive: true })
      symlinkSync(path.join(root, 'node_modules', '@types', 'node-newest'), path.join(modules, '@types', 'node'), 'dir')
      writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
      const compilerOptions = { lib: ['ES2022'], types: ['node'], skipLibCheck: false, strict: true, noEmit: true, target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext' }
      writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }))
      writeFileSync(
        path.join(project, 'consumer.ts'),
        "import { fetchBridge, expressMiddleware, migrationReport } from 'express-fetch-bridge'\nimport { attachWebSockets } from 'express-fetch-bridge/websocket'\nvoid [fetchBridge, expressMiddleware, migrationReport, attachWebSockets]\n",
      )
      const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', project, '--pretty', 'false', '--listFiles'], { encoding: 'utf8' }).catch(
        (err: { stdout?: string; message: string }) => ({ stdout: err.stdout || err.message }),
      )
      expect(stdout.split('\n').filter((line) => /error TS\d+/.test(line))).toEqual([])
      expect(stdout).toMatch(/@types\/node-newest\/index\.d\.ts/)
      expect(stdout).toMatch(/express-fetch-bridge\/dist\/esm\/index\.d\.ts/)
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  }, 120_000)
})
