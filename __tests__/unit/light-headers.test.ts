import { inspect } from 'node:util'
import fc from 'fast-check'
import { flattenHeaders, LightHeaders } from '../../src/core/light-headers.js'
import { apply, names, values, type Op } from '../helpers/headers-ops.js'

// The LightResponse's Headers against the platform's: the same operations, in any order, with any
// names and values (valid, invalid, odd case, edge whitespace, Set-Cookie), give the same results,
// the same iteration and the same errors.

const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('append' as const, 'set' as const), name: names, value: values }),
  fc.record({ op: fc.constantFrom('get' as const, 'has' as const, 'delete' as const), name: names }),
  fc.record({
    op: fc.constantFrom(
      'getSetCookie' as const,
      'entries' as const,
      'keys' as const,
      'values' as const,
      'forEach' as const,
    ),
  }),
)

it('behaves as the platform Headers for any sequence of operations', () => {
  fc.assert(
    fc.property(fc.array(ops, { maxLength: 25 }), (sequence) => {
      const light = new LightHeaders()
      const platform = new Headers()
      for (const op of sequence) expect(apply(light, op)).toEqual(apply(platform, op))
      expect([...light]).toEqual([...platform])
    }),
    { numRuns: 3000 },
  )
})

it('copies another of its kind as the platform copies its own: same entries, then independent', () => {
  fc.assert(
    fc.property(fc.array(ops, { maxLength: 15 }), fc.array(ops, { maxLength: 10 }), (first, then) => {
      const light = new LightHeaders()
      const platform = new Headers()
      for (const op of first) {
        apply(light, op)
        apply(platform, op)
      }
      const lightCopy = new LightHeaders(light)
      const platformCopy = new Headers(platform)
      expect([...lightCopy]).toEqual([...platformCopy])
      for (const op of then) expect(apply(lightCopy, op)).toEqual(apply(platformCopy, op))
      expect([...lightCopy]).toEqual([...platformCopy])
      expect([...light]).toEqual([...platform])
    }),
    { numRuns: 1000 },
  )
})

it('is a Headers to instanceof, toString and the platform classes that take one', async () => {
  const light = new LightHeaders([
    ['X-Trace', 'a'],
    ['set-cookie', 'a=1'],
    ['set-cookie', 'b=2'],
  ])
  expect(light).toBeInstanceOf(Headers)
  expect(Object.prototype.toString.call(light)).toBe('[object Headers]')
  expect([...new Headers(light)]).toEqual([...light])
  const response = new (globalThis as { Response: typeof Response }).Response('x', { headers: light })
  expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  expect(response.headers.get('x-trace')).toBe('a')
  expect(inspect(light)).toContain("'x-trace': 'a'")
})

it('reads init as the platform does (records, pairs, Headers) and rejects what it rejects', () => {
  for (const init of [
    { A: '1', b: ' 2 ' },
    [
      ['a', '1'],
      ['A', '2'],
    ],
    new Headers({ c: '3' }),
  ] as HeadersInit[]) {
    expect([...new LightHeaders(init)]).toEqual([...new Headers(init)])
  }
  for (const bad of [[['a']], 5, null, [['a', '1', '2']]]) {
    // By name: the platform's errors come from Node's realm, not jest's.
    const thrown = (make: () => unknown) => {
      try {
        make()
      } catch (err) {
        return [(err as Error).name, (err as Error).message]
      }
      return undefined
    }
    expect(thrown(() => new LightHeaders(bad as never))).toEqual(thrown(() => new Headers(bad as never)))
  }
})

it('flattens for the serializer without sorting: every line, Set-Cookie lines apart', () => {
  const light = new LightHeaders()
  light.append('vary', 'origin')
  light.append('Set-Cookie', 'a=1')
  light.append('set-cookie', 'b=2')
  light.append('Vary', 'accept')
  const flat: string[] = []
  flattenHeaders(light, flat)
  expect(flat).toEqual(['vary', 'origin, accept', 'set-cookie', 'a=1', 'set-cookie', 'b=2'])
})
