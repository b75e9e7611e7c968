import fc from 'fast-check'
import { LightHeaders } from '../../src/core/light-headers.js'
import { PlatformHeaders } from '../../src/core/platform.js'
import { apply, type Op } from '../helpers/headers-ops.js'
import { LightResponse, OriginalResponse } from '../../src/index.js'

// Iterating a Headers reads its sorted list at every step, as the platform's iterators and forEach do
// (WebIDL pair iterators): what the loop's body sets, appends or deletes is seen by the steps after it.

const liveNames = fc.constantFrom('a', 'B', 'c', 'set-cookie', 'x-late', 'z')
const change: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constantFrom('append', 'set') as fc.Arbitrary<'append' | 'set'>,
    name: liveNames,
    value: fc.constantFrom('1', '2'),
  }),
  fc.record({ op: fc.constant('delete') as fc.Arbitrary<'delete'>, name: liveNames }),
)

type Way = 'entries' | 'keys' | 'values' | 'for-of' | 'forEach'

/** Every item the iteration gives, with `changes[i]` applied to the headers after the i-th item. */
function walk(headers: Headers, way: Way, changes: Op[]): unknown[] {
  const seen: unknown[] = []
  const step = (item: unknown) => {
    seen.push(item)
    const op = changes[seen.length - 1]
    if (op !== undefined) seen.push(apply(headers, op))
  }
  // Changes come only with the first items (a handful), so every loop ends.
  if (way === 'forEach') headers.forEach((value, name) => step([name, value]))
  else if (way === 'for-of') for (const item of headers) step(item)
  else {
    const iterator = headers[way]()
    for (const item of iterator) step(item)
    // An iterator that ended reads the list again: an entry added after it sorts last, past its index.
    seen.push(apply(headers, { op: 'append', name: 'zz', value: '1' }), iterator.next())
  }
  seen.push([...headers])
  return seen
}

it('sees changes made while iterating, as the platform does, in every way of iterating', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(liveNames, fc.constantFrom('v', 'w')), { maxLength: 5 }),
      fc.constantFrom<Way>('entries', 'keys', 'values', 'for-of', 'forEach'),
      fc.array(change, { maxLength: 6 }),
      (init, way, changes) => {
        const expected = walk(new PlatformHeaders(init), way, changes)
        expect(walk(new LightHeaders(init), way, changes)).toEqual(expected)
      },
    ),
    { numRuns: 400 },
  )
})

it('gives a pair of its own at each step: changing one changes neither the headers nor a later iteration', () => {
  const headers = new LightHeaders({ a: '1', b: '2' })
  for (const pair of headers) pair[1] = 'changed'
  expect([...headers]).toEqual([
    ['a', '1'],
    ['b', '2'],
  ])
})

it('trims the combined values of a platform Headers it copies, as the platform does', () => {
  // An empty line appended to a name makes the combined value end in ", "; a copy trims it.
  const source = new PlatformHeaders()
  source.append('a', 'v')
  source.append('a', '')
  source.append('b', '')
  expect([...new LightHeaders(source)]).toEqual([...new PlatformHeaders(source)])
  expect([...new LightResponse('x', { headers: source }).headers]).toEqual([
    ...new OriginalResponse('x', { headers: source }).headers,
  ])
})

it("is an iterator of the platform's kind: left early it goes on where it was, with no return()", () => {
  for (const H of [LightHeaders, PlatformHeaders]) {
    const headers = new H({ a: '1', b: '2', c: '3' })
    const keys = headers.keys()
    for (const key of keys) if (key === 'a') break
    expect(keys.next()).toEqual({ value: 'b', done: false })
    expect(Object.prototype.toString.call(keys)).toBe('[object Headers Iterator]')
    expect(keys[Symbol.iterator]()).toBe(keys)
    expect('return' in keys).toBe(false)
    expect(Object.keys(Object.getPrototypeOf(keys))).toEqual(['next'])
    expect(() => keys.next.call({})).toThrow(
      new TypeError("'next' called on an object that does not implement interface Headers Iterator."),
    )
  }
})

it("calls forEach's callback with the global object as this when no thisArg (or undefined) is given, as the platform does", () => {
  // A strict-mode callback sees its this as given. The platform's class comes from Node's own realm
  // (jest runs tests in another), so it is compared by kind: a global object, one that is its own globalThis.
  const thisOf = (headers: Headers, ...thisArg: unknown[]): unknown => {
    const seen: unknown[] = []
    headers.forEach(
      function (this: unknown) {
        'use strict'
        seen.push(this)
      },
      ...(thisArg as []),
    )
    return seen.length === 1 ? seen[0] : 'not called once'
  }
  for (const Kind of [LightHeaders, PlatformHeaders]) {
    for (const given of [[], [undefined]]) {
      const self = thisOf(new Kind({ a: '1' }), ...given) as { globalThis?: unknown }
      expect(typeof self).toBe('object')
      expect(self.globalThis).toBe(self)
    }
    expect(thisOf(new Kind({ a: '1' }), 5)).toBe(5)
    expect(thisOf(new Kind({ a: '1' }), null)).toBe(null)
  }
  expect(thisOf(new LightHeaders({ a: '1' }))).toBe(globalThis)
})

it('reads a Headers init through its iterator, as the platform does: @@iterator is entries itself, an override of it is used', () => {
  const readings = (Base: typeof Headers): unknown[] => {
    class Over extends Base {
      override *[Symbol.iterator](): HeadersIterator<[string, string]> {
        yield ['over', 'ridden']
      }
    }
    class Entries extends Base {
      override entries(): HeadersIterator<[string, string]> {
        return [['e', '1']][Symbol.iterator]() as unknown as HeadersIterator<[string, string]>
      }
    }
    return [
      Base.prototype[Symbol.iterator] === Base.prototype.entries,
      [...new Base(new Over({ real: '1' }))],
      [...new Entries({ a: '1' })],
      [...new Base(new Entries({ a: '1' }))],
      [...new Base(new Base({ a: '1' }))],
    ]
  }
  expect(readings(LightHeaders)).toEqual(readings(PlatformHeaders))
  expect(readings(LightHeaders)[1]).toEqual([['over', 'ridden']])
})

it('joins repeated Cookie lines with "; " as the platform does, any other name with ", "', () => {
  const init: Array<[string, string]> = [
    ['Cookie', 'a=1'],
    ['cookie', 'b=2'],
    ['x-a', '1'],
    ['X-A', '2'],
  ]
  const Light = LightResponse as unknown as typeof Response
  const seen = (headers: Headers) => [headers.get('cookie'), headers.get('x-a'), [...headers]]
  expect(seen(new LightHeaders(init))).toEqual(seen(new PlatformHeaders(init)))
  expect(seen(new Light('x', { headers: init }).headers)).toEqual(
    seen(new OriginalResponse('x', { headers: init }).headers),
  )
  expect(new LightHeaders(init).get('cookie')).toBe('a=1; b=2')
})

it("reads an init's iterator once and steps it as the platform does: no return() after a bad pair", () => {
  const trace = (Kind: typeof Headers): unknown[] => {
    const log: unknown[] = []
    const sequence = (pairs: unknown[]) => ({
      get [Symbol.iterator]() {
        log.push('get @@iterator')
        return function () {
          let i = 0
          return {
            next: () => (i < pairs.length ? { done: false, value: pairs[i++] } : { done: true, value: undefined }),
            return: () => {
              log.push('return')
              return {}
            },
          }
        }
      },
    })
    log.push([...new Kind(sequence([['a', '1'], ['b', '2']]) as unknown as HeadersInit)])
    try {
      new Kind(sequence([['a', '1'], ['b']]) as unknown as HeadersInit)
    } catch (err) {
      log.push((err as Error).constructor.name)
    }
    class Getter extends Kind {}
    Object.defineProperty(Getter.prototype, Symbol.iterator, {
      get() {
        log.push('subclass get @@iterator')
        return Kind.prototype.entries
      },
    })
    log.push([...new Kind(new Getter({ g: '1' }))])
    return log
  }
  expect(trace(LightHeaders)).toEqual(trace(PlatformHeaders))
  expect(trace(LightHeaders).filter((x) => x === 'get @@iterator')).toHaveLength(2)
})

it('converts a whole sequence before refusing a pair, as the platform does: order of effects and errors', () => {
  const outcome = (Kind: typeof Headers, make: (log: string[]) => unknown): unknown[] => {
    const log: string[] = []
    try {
      log.push(JSON.stringify([...new Kind(make(log) as HeadersInit)]))
    } catch (err) {
      // Node 20's undici misspells "constructor"; the rest of its messages is as Node 24's.
      log.push(`${(err as Error).constructor.name}: ${(err as Error).message.replace('contructor', 'constructor')}`)
    }
    return log
  }
  const told = (log: string[], name: string, text: string) => ({
    toString: () => {
      log.push(name)
      return text
    },
  })
  const cases: Array<(log: string[]) => unknown> = [
    // A refused pair: the generator still runs to its end (and its finally), then the length error.
    (log) =>
      (function* () {
        try {
          log.push('g0')
          yield ['a']
          log.push('g1')
          yield ['b', 'c']
        } finally {
          log.push('finally')
        }
      })(),
    // The first error met when filling: an invalid name before a later short pair, and the reverse.
    () => [['bad name', '1'], ['a']],
    () => [['a'], ['bad name', '1']],
    // A pair's own iterator is the one read; a function with one is a pair too.
    () => [Object.assign(['a', '1'], { *[Symbol.iterator]() { yield 'x'; yield 'y' } })],
    () => [Object.assign(() => {}, { *[Symbol.iterator]() { yield 'f'; yield '1' } })],
    () => [Object.assign(['a', '1'], { *[Symbol.iterator]() { yield 'x'; yield 'y'; yield 'z' } })],
    // The items of a short pair are converted too; a later item's toString runs after earlier checks.
    (log) => [[told(log, 'n', 'a'), told(log, 'v', 'b'), told(log, 'w', 'c')]],
    (log) => [['a\u0100', 'v'], ['b', told(log, 'later', 'x')]],
    (log) => ({ 'k\u0100': told(log, 'value', 'x') }),
    (log) => ({ a: 'x\u0100', b: told(log, 'value', 'x') }),
    () => [['a', '1'], 'ab'],
    () => [['a', '1'], Symbol('s')],
  ]
  for (const make of cases) expect(outcome(LightHeaders, make)).toEqual(outcome(PlatformHeaders, make))
  expect(outcome(LightHeaders, cases[0])).toEqual([
    'g0',
    'g1',
    'finally',
    'TypeError: Headers constructor: expected name/value pair to be length 2, found 1.',
  ])
  expect(outcome(LightHeaders, cases[3])).toEqual([JSON.stringify([['x', 'y']])])
})

it("reads a platform Headers subclass's iterator getter once when copying it, as the platform does", () => {
  const reads = (Kind: typeof Headers): number => {
    let count = 0
    class Counted extends PlatformHeaders {}
    Object.defineProperty(Counted.prototype, Symbol.iterator, {
      get() {
        count++
        return PlatformHeaders.prototype.entries
      },
    })
    const copy = new Kind(new Counted({ a: '1', b: ' 2 ' }))
    expect([...copy]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    return count
  }
  expect(reads(LightHeaders)).toBe(reads(PlatformHeaders))
})
