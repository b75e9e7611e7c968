import { readFileSync } from 'node:fs'
import path from 'node:path'
import { packed, type Packed } from '../helpers/packed'

// The tarball ships src/; its declaration and source maps must point into it, at the right lines,
// so "Go to definition" and stack traces land in the TypeScript source.

interface SourceMap {
  sources: string[]
  sourceRoot?: string
  mappings: string
}

let pack: Packed
const read = (file: string) => readFileSync(path.join(pack.dir, file), 'utf8')

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** For each generated line, the [source index, source line] of its first segment (0-based), if any. */
function firstSegments(mappings: string): ([number, number] | undefined)[] {
  let source = 0
  let line = 0
  return mappings.split(';').map((group) => {
    let first: [number, number] | undefined
    for (const segment of group.split(',').filter(Boolean)) {
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const char of segment) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = shift = 0
        }
      }
      if (fields.length < 4) continue
      source += fields[1]
      line += fields[2]
      first ??= [source, line]
    }
    return first
  })
}

beforeAll(() => {
  pack = packed()
}, 200_000)

describe('the maps in the packed package', () => {
  it('every .js and .d.ts has a map whose sources are files in the tarball', () => {
    const generated = pack.files.filter((file) => /^dist\/.*\.(?:js|d\.ts)$/.test(file))
    expect(generated.length).toBeGreaterThan(20)
    const problems = generated.flatMap((file) => {
      if (!pack.files.includes(`${file}.map`)) return [`${file}: no map`]
      if (!read(file).includes(`//# sourceMappingURL=${path.basename(file)}.map`)) return [`${file}: no sourceMappingURL`]
      const map = JSON.parse(read(`${file}.map`)) as SourceMap
      return map.sources
        .map((source) => path.posix.join(path.posix.dirname(file), map.sourceRoot ?? '', source))
        .filter((source) => !pack.files.includes(source))
        .map((source) => `${file}: source ${source} not in the tarball`)
    })
    expect(problems).toEqual([])
  })

  it('each exported declaration maps to the source line that declares it', () => {
    const declarations = pack.files.filter((file) => /^dist\/.*\.d\.ts$/.test(file))
    let checked = 0
    const wrong = declarations.flatMap((file) => {
      const map = JSON.parse(read(`${file}.map`)) as SourceMap
      const sources = map.sources.map((source) => read(path.posix.join(path.posix.dirname(file), source)).split('\n'))
      const segments = firstSegments(map.mappings)
      return read(file)
        .split('\n')
        .flatMap((line, i) => {
          const name = /^export (?:declare )?(?:function|const|class|interface|type) (\w+)/.exec(line)?.[1]
          if (!name) return []
          checked++
          const at = segments[i]
          const original = at && sources[at[0]][at[1]]
          return original?.includes(name) ? [] : [`${file}:${i + 1} ${name} -> ${original}`]
        })
    })
    expect(checked).toBeGreaterThan(20)
    expect(wrong).toEqual([])
  })
})
