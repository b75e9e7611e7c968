/**
 * Prepares what the bench servers run: `npm run build` (dist/, as users get the package), then each
 * bench/servers/<mode>.ts compiled by esbuild (installed with tsx) into one .mjs per mode, with every
 * package left external and the bridge's `../../src/index.js` pointed at dist/esm. The servers then
 * run with plain `node`, no tsx, loading only what their mode imports.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { build, type Plugin } from 'esbuild'

export const ROOT = path.resolve(__dirname, '..')
/** Inside node_modules so that the compiled servers resolve express, hono, … as users' code does. */
export const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'express-fetch-bridge-bench')
const SERVERS = path.join(__dirname, 'servers')
const DIST = path.join(ROOT, 'dist', 'esm', 'index.js')

const useDist: Plugin = {
  name: 'bridge-from-dist',
  setup(b) {
    b.onResolve({ filter: /\/src\/index\.js$/ }, () => ({
      path: path.relative(OUT_DIR, DIST).split(path.sep).join('/'),
      external: true,
    }))
  },
}

export function serverFile(mode: string): string {
  return path.join(OUT_DIR, `${mode}.mjs`)
}

export async function buildServers(options: { skipPackageBuild?: boolean } = {}): Promise<void> {
  if (!options.skipPackageBuild || !existsSync(DIST)) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' })
  }
  const entryPoints = readdirSync(SERVERS)
    .filter((f) => f.endsWith('.ts') && f !== 'listen.ts')
    .map((f) => path.join(SERVERS, f))
  // The bulk-body routes' client (bench/wrk.ts), run with plain node too.
  entryPoints.push(path.join(__dirname, 'bulk-client.ts'))
  await build({
    entryPoints,
    outdir: OUT_DIR,
    // One flat folder (serverFile): the bulk client sits one level above the servers.
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [useDist],
  })
}
