/**
 * The parts of reading a HeadersInit that need nothing of the Headers class: the platform's TypeErrors,
 * and how a record and a pair are read (light-headers.ts holds the reader itself).
 */

import type { FlatHeaders } from './headers.js'
import { initString } from './header-checks.js'

export function notAnInit(): TypeError {
  return new TypeError(
    'Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.',
  )
}

/** A record's own enumerable entries, values converted to strings (a Symbol refused). */
export function flattenRecord(init: Record<string, unknown>, out: FlatHeaders): void {
  for (const name in init) {
    if (Object.prototype.hasOwnProperty.call(init, name)) {
      const value = init[name]
      // The error's label is built only for a value that needs converting (Hono passes strings).
      out.push(name, typeof value === 'string' ? value : initString(value, `init["${name}"]`))
    }
  }
}

/**
 * A sequence of pairs stepped with the iterator read off it, as the platform's WebIDL steps one: next()
 * read at each step, no return() when a pair is refused.
 */
export function flattenSequence(init: object, iterator: (this: object) => unknown, out: FlatHeaders): void {
  const it = iterator.call(init) as { next?: unknown } | null
  if (it === null || (typeof it !== 'object' && typeof it !== 'function') || typeof it.next !== 'function') {
    throw new TypeError('Headers constructor: init is not iterable.')
  }
  for (let i = 0; ; i++) {
    const { done, value } = (it as Iterator<unknown>).next()
    if (done) return
    pushPair(pairOf(value, i), i, out)
  }
}

/** One item of a pair sequence, as a list: an item that is not iterable is the platform's TypeError. */
export function pairOf(pair: unknown, i: number): unknown[] {
  if (pair === null || typeof pair !== 'object' || typeof (pair as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw new TypeError(
      `Headers constructor: init[${i}] (${typeof pair === 'symbol' ? 'Symbol' : String(pair)}) is not iterable.`,
    )
  }
  return [...(pair as Iterable<unknown>)]
}

export function pushPair(pair: unknown[], i: number, out: FlatHeaders): void {
  if (pair.length !== 2) throw pairLength(pair.length)
  out.push(initString(pair[0], `init[${i}][0]`), initString(pair[1], `init[${i}][1]`))
}

export function pairLength(found: number): TypeError {
  return new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${found}.`)
}

/** A Headers not of the bridge's kind, read by its iterator; one with only forEach() by getSetCookie() too. */
export function flattenForeign(headers: Headers, out: FlatHeaders): void {
  if (typeof headers[Symbol.iterator] === 'function') {
    for (const [name, value] of headers) out.push(name, value)
    return
  }
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : undefined
  headers.forEach((value, name) => {
    if (cookies === undefined || name.toLowerCase() !== 'set-cookie') out.push(name, value)
  })
  if (cookies !== undefined) for (const cookie of cookies) out.push('set-cookie', cookie)
}
