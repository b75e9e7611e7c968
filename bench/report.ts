/** Markdown (stdout, latest-node<major>.md, README), JSON and SVG output of `npm run bench` (no dependencies). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cpuMsPerGiB, megabytesPerSecond } from './stats.js'
import type { Sample } from './wrk.js'

export interface ModeResult {
  /** Medians over the rounds. */
  cpuUs: number
  rps: number
  p99: number
  rounds: Sample[]
}

export interface RouteResultInfo {
  path: string
  method: string
  name: string
  /** Body bytes per request: an upload or download route. */
  bytes?: number
  /** Requests per timed run (bulk routes are driven by count over one connection). */
  requests?: number
}

export interface RatioResult {
  mode: string
  reference: string
  label: string
  target: number
  targetRoutes?: string[]
  routeTargets?: Record<string, number>
  /** Per route: median of per-round reference CPU µs/req ÷ mode CPU µs/req (and the same for req/s, mode ÷ reference). */
  cpu: Record<string, number>
  rps: Record<string, number>
}

export interface BenchResults {
  date: string
  command: string
  machine: { cpu: string; cores: number; node: string; platform: string; wrk: string; pinned: boolean; load: string }
  config: { rounds: number; duration: number; warmup: number; connections: number }
  modes: { id: string; label: string; group: string }[]
  routes: RouteResultInfo[]
  ratios: RatioResult[]
  results: Record<string, Record<string, ModeResult>>
  notes: string[]
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const fix = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–')
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
/** The target of a ratio on a route, if it has one there. */
const targetOf = (x: RatioResult, route: string): number | undefined =>
  x.routeTargets?.[route] ?? (!x.targetRoutes || x.targetRoutes.includes(route) ? x.target : undefined)

function header(r: BenchResults): string {
  const m = r.machine
  return [
    `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.platform}, ${m.wrk}` +
      (m.pinned ? ' (server pinned to CPU 0, wrk to CPU 1)' : ' (not pinned)') + `, load average at start ${m.load}`,
    `Date: ${r.date}. Command: \`${r.command}\`. ${r.config.rounds} interleaved rounds of ${r.config.duration} s ` +
      `after ${r.config.warmup} s warm-up per server and route, wrk -t1 -c${r.config.connections}.`,
  ].join('  \n')
}

const isBulk = (route: RouteResultInfo) => (route.bytes ?? 0) > 0
const mib = (bytes: number) => `${bytes / 2 ** 20} MiB`

function ratioTable(r: BenchResults, routes: RouteResultInfo[], out: string[]): void {
  out.push(`| Ratio | ${routes.map((x) => x.name).join(' | ')} |`)
  out.push(`|---|${routes.map(() => '---:').join('|')}|`)
  for (const x of r.ratios) {
    const cells = routes.map((route) => {
      const v = x.cpu[route.path]
      const target = targetOf(x, route.path)
      if (target === undefined) return fix(v)
      return `${v >= target ? '' : '**'}${fix(v)}${v >= target ? '' : '**'} (${fix(target)})`
    })
    out.push(`| ${x.label} | ${cells.join(' | ')} |`)
  }
}

/** The paired CPU ratios (what README shows). */
export function summary(r: BenchResults): string {
  const out: string[] = [header(r), '']
  const small = r.routes.filter((x) => !isBulk(x))
  const bulk = r.routes.filter(isBulk)
  if (small.length) {
    out.push('Server CPU time per request, reference ÷ bridge (median of per-round ratios; ≥ 1.00: the bridge is cheaper; target in brackets):', '')
    ratioTable(r, small, out)
    out.push('', 'Bold: below target. Server CPU µs per request (median over rounds):', '')
    out.push(`| Mode | ${small.map((x) => x.name).join(' | ')} |`)
    out.push(`|---|${small.map(() => '---:').join('|')}|`)
    for (const m of r.modes) out.push(`| ${m.label} | ${small.map((x) => fix(r.results[x.path][m.id].cpuUs, 1)).join(' | ')} |`)
  }
  if (bulk.length) {
    if (small.length) out.push('')
    out.push(`Bulk bodies (bench/bulk-client.ts: one connection, each run the whole requests that move 512 MiB, 2 GiB for a download): server CPU per GiB of body, reference ÷ bridge (the same bytes per request, so the ratio per request; target in brackets):`, '')
    ratioTable(r, bulk, out)
    out.push('', 'Bold: below target. Server CPU ms per GiB of body, and MB/s (10⁶ bytes/s of body), medians over rounds:', '')
    out.push(`| Mode | ${bulk.map((x) => x.name).join(' | ')} |`)
    out.push(`|---|${bulk.map(() => '---:').join('|')}|`)
    for (const m of r.modes) {
      const cells = bulk.map((x) => {
        const res = r.results[x.path][m.id]
        return `${fix(cpuMsPerGiB(res.cpuUs, x.bytes!), 0)} ms · ${int(megabytesPerSecond(res.rps, x.bytes!))} MB/s`
      })
      out.push(`| ${m.label} | ${cells.join(' | ')} |`)
    }
  }
  return out.join('\n') + '\n'
}

/** The summary plus one detail table per route (req/s and p99 next to CPU). */
export function markdown(r: BenchResults): string {
  const out: string[] = [summary(r).trimEnd()]
  for (const route of r.routes) {
    out.push('', `**${route.method} ${route.path}**${isBulk(route) ? ` (${mib(route.bytes!)} ${route.method === 'POST' ? 'uploaded' : 'downloaded'} per request, ${route.requests} requests per run over one connection)` : ''}`, '')
    out.push('| Mode | CPU µs/req | req/s | p99 ms | CPU µs/req per round |')
    out.push('|---|---:|---:|---:|---|')
    for (const m of r.modes) {
      const x = r.results[route.path][m.id]
      out.push(`| ${m.label} | ${fix(x.cpuUs, 1)} | ${int(x.rps)} | ${ms(x.p99)} | ${x.rounds.map((s) => fix(s.cpuUs, 1)).join(' ')} |`)
    }
  }
  out.push('', 'Paired req/s ratios (bridge ÷ reference, median of per-round ratios; noisier than CPU):', '')
  out.push(`| Ratio | ${r.routes.map((x) => x.name).join(' | ')} |`)
  out.push(`|---|${r.routes.map(() => '---:').join('|')}|`)
  for (const x of r.ratios) out.push(`| ${x.label} | ${r.routes.map((route) => fix(x.rps[route.path])).join(' | ')} |`)
  if (r.notes.length) out.push('', 'Notes:', '', ...r.notes.map((n) => `- ${n}`))
  return out.join('\n') + '\n'
}

const COLORS = ['#e65100', '#1565c0', '#6a1b9a', '#2e7d32', '#757575']
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Grouped bars: per route, each paired CPU ratio, with the 1.0 line and each target marked. */
export function svg(r: BenchResults): string {
  const bar = 16
  const gap = 22
  const left = 48
  const top = 62
  const plotH = 260
  const n = r.ratios.length
  const groupW = n * bar + gap
  const width = Math.max(760, left + r.routes.length * groupW + 20)
  const height = top + plotH + 40 + Math.ceil(n / 2) * 18 + 12
  let max = 1.5
  for (const x of r.ratios) for (const route of r.routes) if (Number.isFinite(x.cpu[route.path])) max = Math.max(max, x.cpu[route.path])
  max = Math.ceil(max * 4) / 4
  const y = (v: number) => top + plotH - (Math.max(0, v) / max) * plotH
  const p: string[] = []
  p.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`)
  p.push(`<rect width="100%" height="100%" fill="#fff"/>`)
  p.push(`<text x="${left}" y="18" font-size="14" font-weight="bold">Server CPU per request: reference ÷ express-fetch-bridge (≥ 1: the bridge is cheaper)</text>`)
  const m = r.machine
  p.push(`<text x="${left}" y="34" fill="#555">${esc(`${m.cpu}, ${m.cores} cores, Node ${m.node}, ${r.date.slice(0, 16).replace('T', ' ')} UTC, load ${m.load}`)}</text>`)
  p.push(`<text x="${left}" y="48" fill="#555">${esc(`${r.command}; median of ${r.config.rounds} paired rounds × ${r.config.duration} s, wrk -c${r.config.connections}; ticks: targets`)}</text>`)
  for (let v = 0; v <= max + 1e-9; v += 0.25) {
    const yy = y(v).toFixed(1)
    const one = Math.abs(v - 1) < 1e-9
    p.push(`<line x1="${left}" x2="${width - 10}" y1="${yy}" y2="${yy}" stroke="${one ? '#000' : '#ddd'}"${one ? ' stroke-dasharray="4 3"' : ''}/>`)
    p.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${v.toFixed(2)}</text>`)
  }
  r.routes.forEach((route, g) => {
    const x0 = left + 10 + g * groupW
    r.ratios.forEach((x, i) => {
      const v = x.cpu[route.path]
      if (!Number.isFinite(v)) return
      const bx = x0 + i * bar
      p.push(`<rect x="${bx}" y="${y(v).toFixed(1)}" width="${bar - 3}" height="${(top + plotH - y(v)).toFixed(1)}" fill="${COLORS[i % COLORS.length]}"><title>${esc(`${x.label}, ${route.name}: ${v.toFixed(2)} (target ${targetOf(x, route.path) ?? '–'})`)}</title></rect>`)
      const target = targetOf(x, route.path)
      if (target !== undefined) p.push(`<line x1="${bx - 1}" x2="${bx + bar - 2}" y1="${y(target).toFixed(1)}" y2="${y(target).toFixed(1)}" stroke="#000" stroke-width="2"/>`)
    })
    p.push(`<text x="${(x0 + (n * bar) / 2).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">${esc(route.name)}</text>`)
  })
  r.ratios.forEach((x, i) => {
    const lx = left + (i % 2) * ((width - left) / 2)
    const ly = top + plotH + 36 + Math.floor(i / 2) * 18
    p.push(`<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`)
    p.push(`<text x="${lx + 15}" y="${ly}">${esc(x.label)}</text>`)
  })
  p.push('</svg>')
  return p.join('\n') + '\n'
}

/** docs/performance.md keeps one summary per Node line, between these markers. */
const markers = (r: BenchResults) => {
  const major = r.machine.node.slice(1).split('.')[0]
  return [`<!-- bench:node${major}:start -->`, `<!-- bench:node${major}:end -->`]
}

/** Write <name>.md/.json/.svg; for the published run also refresh the marked block of docs/performance.md. */
export function writeResults(dir: string, name: string, r: BenchResults, readme?: string): { markdown: string; files: string[] } {
  mkdirSync(dir, { recursive: true })
  const md = markdown(r)
  const files = [path.join(dir, `${name}.md`), path.join(dir, `${name}.json`), path.join(dir, `${name}.svg`)]
  writeFileSync(files[0], `# Benchmark results\n\n${md}`)
  writeFileSync(files[1], JSON.stringify(r, null, 2) + '\n')
  writeFileSync(files[2], svg(r))
  if (readme !== undefined && existsSync(readme)) {
    const text = readFileSync(readme, 'utf8')
    const [START, END] = markers(r)
    const a = text.indexOf(START)
    const b = text.indexOf(END)
    if (a !== -1 && b > a) {
      writeFileSync(readme, text.slice(0, a + START.length) + '\n' + summary(r) + text.slice(b))
      files.push(readme)
    }
  }
  return { markdown: md, files }
}

// `tsx bench/report.ts bench/results/latest-node24.json [--readme]`: re-render md/svg (and docs/performance.md) from the JSON.
if (require.main === module) {
  const file = process.argv[2]
  if (!file) throw new Error('usage: tsx bench/report.ts <results.json> [--readme]')
  const r = JSON.parse(readFileSync(file, 'utf8')) as BenchResults
  const readme = process.argv.includes('--readme') ? path.resolve(__dirname, '..', 'docs', 'performance.md') : undefined
  console.log(writeResults(path.dirname(path.resolve(file)), path.basename(file, '.json'), r, readme).files.join('\n'))
}
