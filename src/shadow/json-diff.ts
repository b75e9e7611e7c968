/**
 * Structural JSON comparison: differences named by path (`$.items[3].price`), with missing and extra
 * keys, type changes and arrays holding the same items in another order told apart.
 */
import { makeDiff, type ShadowDiff } from './shadow-result.js'

/** At most this many differences per comparison: past it the answers differ too much to list. */
export const MAX_DIFFS = 50

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'array' : typeof value
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/**
 * A matcher for ignore rules: `$.a.b` (that field and below), `$.items[*].id` (`[*]` any index, `.*`
 * any key), `$..updatedAt` (that key at any depth), `header:x-build`.
 */
export function pathMatcher(patterns: string[]): ((path: string) => boolean) | undefined {
  if (patterns.length === 0) return undefined
  const sources = patterns.map((p) => {
    if (p.startsWith('header:')) return escape(p.toLowerCase())
    let source = ''
    for (let i = 0; i < p.length; i++) {
      if (p.startsWith('[*]', i)) {
        source += '\\[\\d+\\]'
        i += 2
      } else if (p.startsWith('..', i)) {
        source += '(?:\\.[^.[]+|\\[[^\\]]+\\])*\\.'
        i += 1
      } else if (p.startsWith('.*', i)) {
        source += '(?:\\.[^.[]+|\\["(?:[^"\\\\]|\\\\.)*"\\])'
        i += 1
      } else source += escape(p[i])
    }
    return source
  })
  const re = new RegExp(`^(?:${sources.join('|')})(?:$|[.[])`)
  return (path) => re.test(path)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
}

function sameItemsReordered(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length || a.length < 2) return false
  const left = a.map(canonical)
  const right = b.map(canonical)
  if (left.every((item, i) => item === right[i])) return false
  left.sort()
  right.sort()
  return left.every((item, i) => item === right[i])
}

/** Appends the differences between `a` (Express) and `b` (Hono) under `path` to `out`. */
export function diffJson(
  a: unknown,
  b: unknown,
  path: string,
  out: ShadowDiff[],
  ignored: ((path: string) => boolean) | undefined,
): void {
  if (out.length >= MAX_DIFFS || (ignored !== undefined && ignored(path))) return
  const ka = kindOf(a)
  const kb = kindOf(b)
  if (ka !== kb) {
    out.push(makeDiff(path, 'type', show(a), show(b)))
    return
  }
  if (ka === 'array') {
    const x = a as unknown[]
    const y = b as unknown[]
    if (sameItemsReordered(x, y)) {
      out.push(makeDiff(path, 'order', show(x), show(y)))
      return
    }
    const common = Math.min(x.length, y.length)
    for (let i = 0; i < common; i++) diffJson(x[i], y[i], childPath(path, i), out, ignored)
    for (let i = common; i < x.length && out.length < MAX_DIFFS; i++) {
      const at = childPath(path, i)
      if (ignored === undefined || !ignored(at)) out.push(makeDiff(at, 'missing', show(x[i]), undefined))
    }
    for (let i = common; i < y.length && out.length < MAX_DIFFS; i++) {
      const at = childPath(path, i)
      if (ignored === undefined || !ignored(at)) out.push(makeDiff(at, 'extra', undefined, show(y[i])))
    }
    return
  }
  if (ka === 'object') {
    const x = a as Record<string, unknown>
    const y = b as Record<string, unknown>
    for (const key of Object.keys(x)) {
      const at = childPath(path, key)
      if (Object.prototype.hasOwnProperty.call(y, key)) diffJson(x[key], y[key], at, out, ignored)
      else if (out.length < MAX_DIFFS && (ignored === undefined || !ignored(at)))
        out.push(makeDiff(at, 'missing', show(x[key]), undefined))
    }
    for (const key of Object.keys(y)) {
      const at = childPath(path, key)
      if (Object.prototype.hasOwnProperty.call(x, key) || out.length >= MAX_DIFFS) continue
      if (ignored === undefined || !ignored(at)) out.push(makeDiff(at, 'extra', undefined, show(y[key])))
    }
    return
  }
  if (a !== b) out.push(makeDiff(path, 'value', show(a), show(b)))
}
