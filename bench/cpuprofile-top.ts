/**
 * Summarise a V8 .cpuprofile: self time per file group and per function. The bridge's frames come
 * from dist/ (same function names as src/, see `src/<file>.ts`).
 * `tsx bench/cpuprofile-top.ts <file.cpuprofile> [topN]`
 */
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}

function group(url: string, fn: string): string {
  const nm = url.lastIndexOf('node_modules/')
  if (nm === -1) {
    for (const dir of ['/dist/esm/', '/dist/cjs/', '/src/']) {
      const at = url.lastIndexOf(dir)
      if (at !== -1) return 'bridge src/' + url.slice(at + dir.length).replace(/\.js$/, '.ts')
    }
  } else {
    const rest = url.slice(nm + 13).split('/')
    if (rest[0] === '.cache') return 'bench server (app, floors)'
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
  }
  if (url.startsWith('node:')) return url.slice(5).split('/')[0] === 'internal' ? 'node internals' : url
  if (url === '') return fn === '(garbage collector)' ? '(gc)' : fn.startsWith('(') ? fn : '(native/builtin)'
  return url
}

export function summarise(file: string, top = 30): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  let total = 0
  let idle = 0
  const byFn = new Map<string, number>()
  const byGroup = new Map<string, number>()
  for (const n of profile.nodes) {
    const t = self.get(n.id)
    if (!t) continue
    const { functionName, url, lineNumber } = n.callFrame
    // Waiting in epoll is not work: leave it out of the percentages.
    if (functionName === '(idle)') {
      idle += t
      continue
    }
    total += t
    const short = url.includes('/node_modules/')
      ? url.replace(/^.*\/node_modules\/(\.cache\/[^/]+\/)?/, (_m, cache?: string) => (cache ? 'bench/' : 'node_modules/'))
      : url.replace(/^.*\/(dist\/esm|dist\/cjs|src|bench)\//, (_m, d: string) => (d.startsWith('dist') ? 'src/' : `${d}/`))
    const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`
    byFn.set(key, (byFn.get(key) ?? 0) + t)
    const g = group(url, functionName)
    byGroup.set(g, (byGroup.get(g) ?? 0) + t)
  }
  const pct = (t: number) => ((100 * t) / total).toFixed(1).padStart(5) + '%'
  const out = [`busy ${(total / 1e6).toFixed(2)} s sampled (idle ${(idle / 1e6).toFixed(2)} s left out); line numbers are dist/'s`, '', 'by group:']
  for (const [k, t] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 20)) out.push(`${pct(t)}  ${k}`)
  out.push('', `top ${top} functions (self time):`)
  for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`${pct(t)}  ${k}`)
  return out.join('\n')
}

if (require.main === module) {
  const file = process.argv[2]
  if (!file) throw new Error('usage: tsx bench/cpuprofile-top.ts <file.cpuprofile> [topN]')
  console.log(summarise(file, Number(process.argv[3] ?? 30)))
}
