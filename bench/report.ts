/** Markdown, JSON and SVG output of the benchmark (no dependencies). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export interface Sample {
  rps: number
  /** p99 latency in milliseconds. */
  p99: number
  timeouts: number
  requests: number
  /** Server CPU time (user + system) per request in microseconds. */
  cpuUs: number
}

export interface ModeResult {
  rps: number
  p99: number
  vsFloor: number
  vsReference: number
  cpuUs: number
  /** Median per-round floor CPU/request ÷ this mode's: like vsFloor, but from CPU time, not wall time. */
  cpuVsFloor: number
  /** The mode's own comparison (front-door modes), as a median of per-round req/s ratios. */
  compareTo?: string
  vsCompareTo?: number
  rounds: Sample[]
}

export interface BenchResults {
  date: string
  command: string
  machine: { cpu: string; cores: number; node: string; platform: string; wrk: string; pinned: boolean }
  config: { rounds: number; duration: number; warmup: number; connections: number }
  modes: { id: string; label: string }[]
  routes: { path: string; method: string; name: string }[]
  floor: string
  reference: string
  notes: string[]
  results: Record<string, Record<string, ModeResult>>
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ratio = (n: number) => n.toFixed(2)
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1))

function header(r: BenchResults): string {
  const m = r.machine
  return [
    `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.platform}, ${m.wrk}` +
      (m.pinned ? ' (server pinned to CPU 0, wrk to CPU 1)' : ' (not pinned)'),
    `Date: ${r.date}. Command: \`${r.command}\`. ${r.config.rounds} interleaved rounds of ${r.config.duration} s ` +
      `after ${r.config.warmup} s warm-up, wrk -t1 -c${r.config.connections}.`,
  ].join('  \n')
}

/** Machine, date, command and the matrix of ratios to the floor (what README shows). */
export function summary(r: BenchResults): string {
  const floorLabel = r.modes.find((m) => m.id === r.floor)!.label
  const out: string[] = []
  out.push(header(r), '')
  out.push(`Median of per-round ratios to the ${floorLabel} (higher is better; 1.00 = the floor):`, '')
  out.push(`| Mode | ${r.routes.map((x) => x.name).join(' | ')} |`)
  out.push(`|---|${r.routes.map(() => '---:').join('|')}|`)
  for (const m of r.modes) out.push(`| ${m.label} | ${r.routes.map((x) => ratio(r.results[x.path][m.id].vsFloor)).join(' | ')} |`)
  const own = r.modes.filter((m) => r.routes.some((x) => r.results[x.path][m.id].compareTo !== undefined))
  if (own.length) {
    out.push('', 'Front-door mode against what it replaces (median of per-round ratios):', '')
    out.push(`| Mode | against | ${r.routes.map((x) => x.name).join(' | ')} |`)
    out.push(`|---|---|${r.routes.map(() => '---:').join('|')}|`)
    for (const m of own) {
      const ref = r.results[r.routes[0].path][m.id].compareTo!
      const refLabel = r.modes.find((x) => x.id === ref)?.label ?? ref
      out.push(`| ${m.label} | ${refLabel} | ${r.routes.map((x) => ratio(r.results[x.path][m.id].vsCompareTo ?? NaN)).join(' | ')} |`)
    }
  }
  return out.join('\n') + '\n'
}

/** The summary plus one detail table per route. */
export function markdown(r: BenchResults): string {
  const refLabel = r.modes.find((m) => m.id === r.reference)!.label
  const out: string[] = [summary(r).trimEnd()]
  for (const route of r.routes) {
    out.push('', `**${route.name}**`, '')
    out.push(`| Mode | req/s (median) | p99 ms (median) | × floor | × ${refLabel} | server CPU µs/req | × floor by CPU |`)
    out.push('|---|---:|---:|---:|---:|---:|---:|')
    for (const m of r.modes) {
      const x = r.results[route.path][m.id]
      out.push(`| ${m.label} | ${int(x.rps)} | ${ms(x.p99)} | ${ratio(x.vsFloor)} | ${ratio(x.vsReference)} | ${x.cpuUs.toFixed(1)} | ${ratio(x.cpuVsFloor)} |`)
    }
  }
  out.push('', '"× floor" and "× ' + refLabel + '" are medians of per-round req/s ratios. "× floor by CPU" is the median ' +
    'per-round ratio of the floor\'s server CPU time per request to the mode\'s (from /proc; less sensitive to other load).')
  if (r.notes.length) out.push('', 'Notes:', '', ...r.notes.map((n) => `- ${n}`))
  return out.join('\n') + '\n'
}

const COLORS = ['#9e9e9e', '#424242', '#8d6e63', '#e65100', '#ffa726', '#6a1b9a', '#1565c0', '#00897b', '#c2185b', '#7cb342']
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Grouped bars: per route, each mode's ratio to the Express floor, with the 1.0 line marked. */
export function svg(r: BenchResults): string {
  const bar = 11
  const gap = 18
  const left = 48
  const top = 58
  const plotH = 260
  const groupW = r.modes.length * bar + gap
  const width = Math.max(720, left + r.routes.length * groupW + 20)
  const legendRows = Math.ceil(r.modes.length / 2)
  const height = top + plotH + 40 + legendRows * 18 + 12
  let max = 1.2
  for (const route of r.routes) for (const m of r.modes) max = Math.max(max, r.results[route.path][m.id].vsFloor)
  max = Math.ceil(max * 4) / 4
  const y = (v: number) => top + plotH - (v / max) * plotH
  const parts: string[] = []
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`)
  parts.push(`<rect width="100%" height="100%" fill="#fff"/>`)
  parts.push(`<text x="${left}" y="18" font-size="14" font-weight="bold">Throughput relative to the Express 5 floor (median of paired rounds)</text>`)
  const m = r.machine
  parts.push(`<text x="${left}" y="34" fill="#555">${esc(`${m.cpu}, ${m.cores} cores, Node ${m.node}, ${r.date.slice(0, 10)}`)}</text>`)
  parts.push(`<text x="${left}" y="48" fill="#555">${esc(`${r.command}; ${r.config.rounds}×${r.config.duration} s rounds, wrk -c${r.config.connections}`)}</text>`)
  for (let v = 0; v <= max + 1e-9; v += 0.25) {
    const yy = y(v).toFixed(1)
    const strong = Math.abs(v - 1) < 1e-9
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${yy}" y2="${yy}" stroke="${strong ? '#000' : '#ddd'}"${strong ? ' stroke-dasharray="4 3"' : ''}/>`)
    parts.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${v.toFixed(2)}</text>`)
  }
  r.routes.forEach((route, g) => {
    const x0 = left + 10 + g * groupW
    r.modes.forEach((mode, i) => {
      const v = r.results[route.path][mode.id].vsFloor
      const x = x0 + i * bar
      parts.push(`<rect x="${x}" y="${y(v).toFixed(1)}" width="${bar - 2}" height="${(plotH - (y(v) - top)).toFixed(1)}" fill="${COLORS[i % COLORS.length]}"><title>${esc(`${mode.label}, ${route.name}: ${v.toFixed(2)}× floor`)}</title></rect>`)
    })
    parts.push(`<text x="${(x0 + (r.modes.length * bar) / 2).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">${esc(route.name)}</text>`)
  })
  r.modes.forEach((mode, i) => {
    const col = i % 2
    const row = Math.floor(i / 2)
    const x = left + col * ((width - left) / 2)
    const yy = top + plotH + 36 + row * 18
    parts.push(`<rect x="${x}" y="${yy - 9}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`)
    parts.push(`<text x="${x + 15}" y="${yy}">${esc(mode.label)}</text>`)
  })
  parts.push('</svg>')
  return parts.join('\n') + '\n'
}

const START = '<!-- bench:start -->'
const END = '<!-- bench:end -->'

/** Write <name>.md/.json/.svg; for the published run also refresh README's marked table. */
export function writeResults(dir: string, name: string, r: BenchResults, readme?: string): { markdown: string; files: string[] } {
  mkdirSync(dir, { recursive: true })
  const md = markdown(r)
  const files = [path.join(dir, `${name}.md`), path.join(dir, `${name}.json`), path.join(dir, `${name}.svg`)]
  writeFileSync(files[0], `# Benchmark results\n\n${md}`)
  writeFileSync(files[1], JSON.stringify(r, null, 2) + '\n')
  writeFileSync(files[2], svg(r))
  if (readme !== undefined && existsSync(readme)) {
    const text = readFileSync(readme, 'utf8')
    const a = text.indexOf(START)
    const b = text.indexOf(END)
    if (a !== -1 && b > a) {
      writeFileSync(readme, text.slice(0, a + START.length) + '\n' + summary(r) + text.slice(b))
      files.push(readme)
    }
  }
  return { markdown: md, files }
}

// `tsx bench/report.ts bench/results/latest.json [--readme]`: re-render md/svg (and README) from the JSON.
if (require.main === module) {
  const file = process.argv[2]
  if (!file) throw new Error('usage: tsx bench/report.ts <results.json> [--readme]')
  const r = JSON.parse(readFileSync(file, 'utf8')) as BenchResults
  const name = path.basename(file, '.json')
  const readme = process.argv.includes('--readme') ? path.resolve(__dirname, '..', 'README.md') : undefined
  console.log(writeResults(path.dirname(path.resolve(file)), name, r, readme).files.join('\n'))
}
