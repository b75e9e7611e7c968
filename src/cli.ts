#!/usr/bin/env node
/**
 * `express-fetch-bridge routes <server module> [--json] [--prefix <path>] [--mount-path strip|keep] [--express-routing]`
 *
 * Loads a module that exports the server's apps without listening, and prints the migration report.
 * The module exports (named, or as properties of its default export / `module.exports`):
 *   - `app` (or `express`): the Express app, with or without the bridge mounted in it, or a
 *     front-door bridge (`fetchBridge(hono, { fallback: app })`);
 *   - `hono`: the Hono app (optional when a bridge over it is mounted in `app`).
 * A default export that is itself the Express app or a front-door bridge works too.
 * .js, .cjs and .mjs modules load with Node; .ts/.mts/.cts when tsx is installed.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { migrationReport, type MigrationReport, type MigrationReportOptions } from './migration/migration-report.js'

const USAGE = `Usage: express-fetch-bridge routes <server module> [--json] [--prefix <path>] [--mount-path strip|keep] [--express-routing]

The module exports the Express app as \`app\` (or \`express\`) and the Hono app as \`hono\`
(e.g. module.exports = { app, hono }), without calling listen(). --prefix and --mount-path describe
where the bridge serves Hono when it is not mounted in the Express app (default: in front, at /);
--express-routing says that bridge has \`expressRouting: true\`. A bridge found in the app is read with its
own options: --mount-path and --express-routing then change nothing (a notice says so).`

interface Args {
  file: string
  json: boolean
  options: MigrationReportOptions
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv
  if (command !== 'routes')
    throw new UsageError(command === undefined ? 'missing command' : `unknown command: ${command}`)
  let file: string | undefined
  let json = false
  const options: MigrationReportOptions = {}
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    if (arg === '--json') json = true
    else if (arg === '--express-routing') options.expressRouting = true
    else if (arg === '--prefix') options.prefix = value(rest, ++i, arg)
    else if (arg === '--mount-path') {
      const mountPath = value(rest, ++i, arg)
      if (mountPath !== 'strip' && mountPath !== 'keep')
        throw new UsageError(`--mount-path must be strip or keep, got ${mountPath}`)
      options.mountPath = mountPath
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option: ${arg}`)
    else if (file === undefined) file = arg
    else throw new UsageError(`unexpected argument: ${arg}`)
  }
  if (file === undefined) throw new UsageError('missing the server module')
  return { file: path.resolve(file), json, options }
}

function value(args: string[], i: number, name: string): string {
  const v = args[i]
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`)
  return v
}

type Tsx = { tsImport(specifier: string, parent: string): Promise<Record<string, unknown>> }

/** tsx's ESM API: next to this CLI, else the server module's project (through tsx's exports map). */
async function loadTsx(file: string): Promise<Tsx | undefined> {
  // A variable, so the compiler neither resolves tsx's types (an optional tool) nor bundles it.
  const specifier = 'tsx/esm/api'
  try {
    return await import(specifier)
  } catch {
    try {
      const manifest = createRequire(file).resolve('tsx/package.json')
      const entry = JSON.parse(readFileSync(manifest, 'utf8')).exports['./esm/api'].import.default as string
      return await import(pathToFileURL(path.join(path.dirname(manifest), entry)).href)
    } catch {
      return undefined
    }
  }
}

async function load(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href
  if (!/\.[cm]?ts$/.test(file)) return import(url)
  const tsx = await loadTsx(file)
  if (tsx !== undefined) return tsx.tsImport(url, url)
  try {
    return await import(url) // already running under a TypeScript loader
  } catch {
    throw new UsageError(`${path.basename(file)} is TypeScript: install tsx, or point to the compiled .js`)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && (typeof v === 'object' || typeof v === 'function')

/**
 * Finds `{ app | express, hono }` in the module or its default export, or takes a default export that
 * is itself the app. (A TypeScript or CJS module imported as ESM can nest `default` twice.)
 */
function pickApps(ns: Record<string, unknown>): { app: unknown; hono: unknown } {
  const levels: Record<string, unknown>[] = []
  for (let level: unknown = ns; isObject(level) && levels.length < 3; level = level.default) levels.push(level)
  for (const source of levels) {
    const app = source.app ?? source.express
    if (app !== undefined) return { app, hono: source.hono }
  }
  const app = levels.find((level) => typeof level === 'function')
  if (app !== undefined) return { app, hono: levels.map((level) => level.hono).find((h) => h !== undefined) }
  throw new UsageError(
    'the module exports no Express app: export `app` (or `express`) and `hono`, e.g. module.exports = { app, hono }',
  )
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    await write(USAGE + '\n')
    return 0
  }
  const args = parseArgs(argv)
  const { app, hono } = pickApps(await load(args.file))
  const report = migrationReport(app, hono, args.options)
  const notice = ignoredFlags(args, report.bridges)
  if (notice !== undefined) process.stderr.write(notice)
  await write(args.json ? JSON.stringify(report, null, 2) + '\n' : report.format())
  return 0
}

/**
 * --express-routing and --mount-path describe an assumed bridge: with a bridge found in the app (or a
 * front door given) and no --prefix, the report reads that bridge's own options and the flags change
 * nothing, which must not go unsaid. On stderr, so --json output stays JSON.
 */
function ignoredFlags(args: Args, bridges: MigrationReport['bridges']): string | undefined {
  const flags = [
    ...(args.options.expressRouting !== undefined ? ['--express-routing'] : []),
    ...(args.options.mountPath !== undefined ? ['--mount-path'] : []),
  ]
  if (flags.length === 0 || !bridges.every((b) => b.detected)) return undefined
  const found = bridges
    .map((b) => `${b.path} (mountPath ${b.mountPath}, expressRouting ${b.expressRouting ? 'on' : 'off'})`)
    .join(', ')
  return (
    `express-fetch-bridge: ${flags.join(' and ')} ignored: the report uses the options of the bridge found in ` +
    `the app, at ${found}. These flags describe a bridge the report cannot see; set the option on the ` +
    `bridge itself, or pass --prefix to model an assumed bridge instead.\n`
  )
}

const write = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()))

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError
    process.stderr.write(
      `express-fetch-bridge: ${err instanceof Error ? err.message : String(err)}\n${usage ? '\n' + USAGE + '\n' : ''}`,
    )
    // The server module may have opened handles (databases, timers): exit rather than wait for them.
    process.exit(usage ? 2 : 1)
  },
)
