import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { diffJson, pathMatcher } from '../../src/shadow/json-diff.js'
import type { ShadowDiff } from '../../src/shadow/shadow-result.js'

const diff = (a: unknown, b: unknown, ignore: string[] = []) => {
  const out: ShadowDiff[] = []
  diffJson(a, b, '$', out, pathMatcher(ignore))
  return out
}

/** Deep equality of JSON values with object key order left out (as JSON.parse gives them). */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, sorted(x)])) : v
  return isDeepStrictEqual(sorted(a), sorted(b))
}

const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown)

describe('diffJson', () => {
  it('finds no difference exactly when the two values are the same JSON (key order aside)', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(diff(a, b).length === 0).toBe(sameJson(a, b))
        expect(diff(a, JSON.parse(JSON.stringify(a)))).toEqual([])
      }),
      { numRuns: 500 },
    )
  })

  it('names each difference by path and kind', () => {
    expect(diff({ items: [{ price: 10 }] }, { items: [{ price: '10' }] }).map((d) => [String(d), d.kind])).toEqual([
      ['$.items[0].price: 10 vs "10"', 'type'],
    ])
    expect(diff([1, 2], [1]).map(String)).toEqual(['$[1]: 2 vs (missing)'])
    expect(diff([1], [1, { a: 1 }]).map(String)).toEqual(['$[1]: (missing) vs {"a":1}'])
    expect(diff({ a: [{ x: 1 }, { x: 2 }] }, { a: [{ x: 2 }, { x: 1 }] }).map((d) => d.kind)).toEqual(['order'])
    expect(diff({ 'a b': 1 }, { 'a b': 2 }).map(String)).toEqual(['$["a b"]: 1 vs 2'])
  })

  it('leaves out ignored paths: exact, [*] indices, .* keys and ..name at any depth', () => {
    const a = { meta: { id: 1, at: 1 }, items: [{ at: 1, v: 1 }, { at: 2, v: 2 }], deep: { x: { at: 3 } } }
    const b = { meta: { id: 2, at: 9 }, items: [{ at: 8, v: 1 }, { at: 9, v: 3 }], deep: { x: { at: 4 } } }
    expect(diff(a, b).map((d) => d.field)).toEqual(['$.meta.id', '$.meta.at', '$.items[0].at', '$.items[1].at', '$.items[1].v', '$.deep.x.at'])
    expect(diff(a, b, ['$.meta']).map((d) => d.field)).toEqual(['$.items[0].at', '$.items[1].at', '$.items[1].v', '$.deep.x.at'])
    expect(diff(a, b, ['$.items[*].at', '$.meta.*']).map((d) => d.field)).toEqual(['$.items[1].v', '$.deep.x.at'])
    expect(diff(a, b, ['$..at']).map((d) => d.field)).toEqual(['$.meta.id', '$.items[1].v'])
    // A prefix of a key is not that key.
    expect(diff({ ab: 1 }, { ab: 2 }, ['$.a']).map((d) => d.field)).toEqual(['$.ab'])
  })
})
