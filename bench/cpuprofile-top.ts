/**
 * Summarise a V8 .cpuprofile (from BENCH_CPU_PROF): self time per function and per file group.
 * `tsx bench/cpuprofile-top.ts bench/profiles/bridge-express5.cpuprofile [topN]`
 */
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}

const file = process.argv[2]
if (!file) throw new Error('usage: tsx bench/cpuprofile-top.ts <file.cpuprofile> [topN]')
const top = Number(process.argv[3] ?? 30)
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const self = new Map<number, number>()
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const total = [...self.values()].reduce((a, b) => a + b, 0)

function group(url: string, fn: string): string {
  if (url.includes('/src/')) return 'bridge src/' + url.slice(url.lastIndexOf('/src/') + 5)
  const nm = url.lastIndexOf('node_modules/')
  if (nm !== -1) {
    const rest = url.slice(nm + 13).split('/')
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
  }
  if (url.startsWith('node:')) return url.slice(5).split('/')[0] === 'internal' ? 'node internals' : url
  if (url === '') return fn === '(garbage collector)' ? '(gc)' : fn.startsWith('(') ? fn : '(native/builtin)'
  return url
}

const byFn = new Map<string, number>()
const byGroup = new Map<string, number>()
for (const n of profile.nodes) {
  const t = self.get(n.id)
  if (!t) continue
  const { functionName, url, lineNumber } = n.callFrame
  const short = url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')
  const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`
  byFn.set(key, (byFn.get(key) ?? 0) + t)
  const g = group(url, functionName)
  byGroup.set(g, (byGroup.get(g) ?? 0) + t)
}
const pct = (t: number) => ((100 * t) / total).toFixed(1).padStart(5) + '%'
console.log(`total sampled ${(total / 1e6).toFixed(2)} s`)
console.log('\nby group:')
for (const [k, t] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(t)}  ${k}`)
console.log(`\ntop ${top} functions (self time):`)
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`)
