import fc from 'fast-check'
import { indexOfHeader, removeHeader, sameName, type FlatHeaders } from '../../src/core/headers'
import { flattenHeaders, flattenInit, LIGHT } from '../../src/core/light-headers'
import { checkEntries } from '../../src/core/header-checks'
import type { HeadersInit } from '../../src/core/fetch-types'

// Oracle: the platform Headers class. A flat list is what the serializer writes; written to the
// wire and read back by a client it must give the entries `new Headers(init)` has.

const tokenChar = fc.constantFrom(..."abcxyzABCXYZ019-_!#$%&'*+.^`|~".split(''))
const name = fc.oneof(
  fc.string({ unit: tokenChar, minLength: 1, maxLength: 8 }),
  fc.constantFrom('Set-Cookie', 'set-cookie', 'SET-COOKIE', 'Vary', 'content-type', 'Content-Type', 'x-a', 'X-A'),
)
// Any byte a header value may hold: no NUL, CR or LF; leading/trailing spaces and tabs included.
const valueChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constantFrom(0x09, 0x80, 0xa0, 0xe9, 0xff))
  .map((c) => String.fromCharCode(c))
const value = fc.string({ unit: valueChar, maxLength: 10 })
const pairs = fc.array(fc.tuple(name, value), { maxLength: 8 })

/** The list as a receiver sees it: each line appended to a Headers object. */
function asHeaders(flat: FlatHeaders): Headers {
  const headers = new Headers()
  for (let i = 0; i < flat.length; i += 2) headers.append(flat[i], flat[i + 1])
  return headers
}

function flat(init: HeadersInit | undefined): FlatHeaders {
  const out: FlatHeaders = []
  // One of the bridge's Headers is left to the caller, who copies it from its own state.
  const found = flattenInit(init, out)
  if (found === LIGHT) flattenHeaders(init as Headers, out)
  // The checks the platform makes when it fills the headers (a pair's length among them), on a copy:
  // the list itself keeps the names as written.
  else checkEntries(out.slice())
  return out
}

function thrownName(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return (err as Error).name
  }
  return undefined
}

describe('flattenInit against new Headers(init)', () => {
  const inits: Array<[string, (p: Array<[string, string]>) => HeadersInit]> = [
    ['a pair list', (p) => p],
    ['a plain object', (p) => Object.fromEntries(p)],
    ['a Headers object', (p) => new Headers(p)],
    ['a Map (any iterable of pairs)', (p) => new Map(p) as unknown as HeadersInit],
  ]

  it.each(inits)('%s: same entries (lower-cased, combined, Set-Cookie kept separate)', (_, make) => {
    fc.assert(
      fc.property(pairs, (p) => {
        const init = make(p)
        const out = flat(init)
        expect([...asHeaders(out)]).toEqual([...new Headers(init)])
        expect(asHeaders(out).getSetCookie()).toEqual(new Headers(init).getSetCookie())
      }),
      { numRuns: 200 },
    )
  })

  it('keeps each pair of a list as a line, in order, names as given', () => {
    fc.assert(
      fc.property(pairs, (p) => {
        expect(flat(p)).toEqual(p.flat())
      }),
      { numRuns: 100 },
    )
  })

  it('converts names and values with String(), as Headers does', () => {
    const init = [
      [1, 2],
      ['x', true],
    ] as unknown as HeadersInit
    expect([...asHeaders(flat(init))]).toEqual([...new Headers(init)])
  })

  it.each([
    ['undefined', undefined],
    ['an empty object', {}],
    ['an empty list', []],
  ])('gives nothing for %s', (_, init) => {
    expect(flat(init as HeadersInit | undefined)).toEqual([...new Headers(init as HeadersInit | undefined)].flat())
  })

  it.each([[[['a']]], [[['a', 'b', 'c']]]])(
    'throws a TypeError for a pair that is not two items, as Headers does (%j)',
    (init) => {
      // Compared by name: the platform's TypeError comes from another realm than jest's.
      expect(thrownName(() => new Headers(init as unknown as HeadersInit))).toBe('TypeError')
      expect(thrownName(() => flat(init as unknown as HeadersInit))).toBe('TypeError')
    },
  )

  it.each([[5], ['text'], [true], [[new Set(['a'])]], [new Map([['a', '1']])]])(
    'rejects or reads %j as Headers does (the same error message)',
    (init) => {
      const message = (fn: () => unknown) => {
        try {
          fn()
        } catch (err) {
          return (err as Error).message
        }
        return undefined
      }
      expect(message(() => flat(init as unknown as HeadersInit))).toEqual(
        message(() => new Headers(init as unknown as HeadersInit)),
      )
    },
  )

  it('ignores inherited properties of a plain object, as Headers does', () => {
    const init = Object.create({ inherited: 'x' }) as Record<string, string>
    init.own = 'y'
    expect([...asHeaders(flat(init))]).toEqual([...new Headers(init)])
  })
})

describe('flattenHeaders', () => {
  it('gives exactly the entries Headers iterates, one line per Set-Cookie', () => {
    fc.assert(
      fc.property(pairs, (p) => {
        const headers = new Headers(p)
        const out: FlatHeaders = []
        flattenHeaders(headers, out)
        expect(out).toEqual([...headers].flat())
        expect(asHeaders(out).getSetCookie()).toEqual(headers.getSetCookie())
      }),
      { numRuns: 200 },
    )
  })
})

describe('indexOfHeader and removeHeader against Headers.has/delete', () => {
  it('find and remove a name in any case', () => {
    fc.assert(
      fc.property(pairs, name, (p, n) => {
        const list = p.flat()
        const lower = n.toLowerCase()
        const headers = new Headers(p)
        const index = indexOfHeader(list, lower)
        expect(index !== -1).toBe(headers.has(n))
        if (index !== -1) expect(list[index].toLowerCase()).toBe(lower)
        removeHeader(list, lower)
        headers.delete(n)
        expect([...asHeaders(list)]).toEqual([...headers])
      }),
      { numRuns: 200 },
    )
  })
})

describe('sameName against Headers', () => {
  it('holds exactly when a Headers object takes the two names as one', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const headers = new Headers([[a, '1']])
        expect(sameName(a, b)).toBe(headers.has(b))
        expect(sameName(b, a)).toBe(sameName(a, b))
      }),
      { numRuns: 500 },
    )
  })
})
