/**
 * Comparing two captured answers — Express's and the Hono twin's, or two runs of the twin (noise):
 * status, the headers that matter, and the body (JSON structurally, text and bytes by content).
 */
import { diffJson, MAX_DIFFS } from './json-diff.js'
import { makeDiff, type ShadowDiff } from './shadow-result.js'

/** One side's answer as captured: headers lower-cased (repeated ones joined), body decoded. */
export interface Captured {
  status: number
  headers: Map<string, string>
  body: Buffer
}

export interface CompareRules {
  method: string
  ignoreHeaders: ReadonlySet<string>
  ignored: ((path: string) => boolean) | undefined
  normalize: ((body: any, side: 'express' | 'hono') => unknown) | undefined
}

const NO_BODY_STATUS = new Set([101, 204, 205, 304])

/** `application/json; charset=UTF-8` and `application/json` are the same answer: JSON is UTF-8. */
function mediaType(value: string): string {
  const parts = value
    .toLowerCase()
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  if (isJsonType(parts[0] ?? '')) return parts.filter((p) => p !== 'charset=utf-8').join('; ')
  return parts.join('; ')
}

function isJsonType(type: string): boolean {
  const media = type.split(';')[0].trim().toLowerCase()
  return media === 'application/json' || media.endsWith('+json')
}

function isTextType(type: string): boolean {
  const media = type.split(';')[0].trim().toLowerCase()
  return (
    media.startsWith('text/') ||
    media.endsWith('+xml') ||
    media === 'application/xml' ||
    media === 'application/javascript' ||
    media === 'application/x-www-form-urlencoded'
  )
}

function compareHeaders(a: Captured, b: Captured, rules: CompareRules, out: ShadowDiff[]): void {
  const names = new Set([...a.headers.keys(), ...b.headers.keys()])
  for (const name of [...names].sort()) {
    if (rules.ignoreHeaders.has(name)) continue
    const field = `header:${name}`
    if (rules.ignored !== undefined && rules.ignored(field)) continue
    let x = a.headers.get(name)
    let y = b.headers.get(name)
    if (name === 'content-type') {
      x = x === undefined ? x : mediaType(x)
      y = y === undefined ? y : mediaType(y)
    }
    if (x === y) continue
    out.push(makeDiff(field, x === undefined ? 'extra' : y === undefined ? 'missing' : 'value', x, y))
  }
}

function parse(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) }
  } catch {
    return { ok: false }
  }
}

function snippet(text: string, at: number): string {
  const start = Math.max(0, at - 20)
  const piece = JSON.stringify(text.slice(start, at + 40))
  return `${start > 0 ? '…' : ''}${piece}${at + 40 < text.length ? '…' : ''}`
}

function firstDifference(a: ArrayLike<number | string>, b: ArrayLike<number | string>): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i
  return n
}

function compareBody(a: Captured, b: Captured, rules: CompareRules, out: ShadowDiff[]): void {
  const type = a.headers.get('content-type') ?? b.headers.get('content-type') ?? ''
  const json = isJsonType(type) || (a.body.length > 0 && isJsonType(b.headers.get('content-type') ?? ''))
  if (json) {
    const x = parse(a.body)
    const y = parse(b.body)
    if (x.ok && y.ok) {
      const left = rules.normalize ? rules.normalize(x.value, 'express') : x.value
      const right = rules.normalize ? rules.normalize(y.value, 'hono') : y.value
      diffJson(left, right, '$', out, rules.ignored)
      return
    }
  }
  if (rules.ignored !== undefined && rules.ignored('body')) return
  if (isTextType(type) || json) {
    let x: unknown = a.body.toString('utf8')
    let y: unknown = b.body.toString('utf8')
    if (rules.normalize) {
      x = rules.normalize(x, 'express')
      y = rules.normalize(y, 'hono')
    }
    if (typeof x !== 'string' || typeof y !== 'string') return diffJson(x, y, '$', out, rules.ignored)
    if (x === y) return
    const at = firstDifference(x, y)
    out.push(makeDiff('body', 'value', snippet(x, at), snippet(y, at)))
    return
  }
  if (a.body.equals(b.body)) return
  const at = firstDifference(a.body, b.body)
  out.push(
    makeDiff('body', 'value', `${a.body.length} bytes`, `${b.body.length} bytes (first difference at byte ${at})`),
  )
}

/** The differences between `a` (Express, or the twin's first run) and `b`. */
export function compareCaptured(a: Captured, b: Captured, rules: CompareRules): ShadowDiff[] {
  const out: ShadowDiff[] = []
  if (a.status !== b.status) out.push(makeDiff('status', 'value', String(a.status), String(b.status)))
  compareHeaders(a, b, rules, out)
  // HEAD and bodiless statuses carry no body on the wire: nothing to compare.
  if (
    rules.method !== 'HEAD' &&
    !NO_BODY_STATUS.has(a.status) &&
    !NO_BODY_STATUS.has(b.status) &&
    out.length < MAX_DIFFS
  ) {
    compareBody(a, b, rules, out)
  }
  return out
}

/** Whether `field` is, or lies under, one of the noise fields. */
export function isNoise(field: string, noise: ReadonlySet<string>): boolean {
  if (noise.size === 0) return false
  if (noise.has(field)) return true
  for (let i = field.length - 1; i > 0; i--) {
    const c = field[i]
    if ((c === '.' || c === '[') && noise.has(field.slice(0, i))) return true
  }
  return false
}
