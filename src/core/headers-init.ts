/**
 * The parts of reading a HeadersInit that need nothing of the Headers class: the platform's TypeErrors,
 * and how a record and a pair are read (light-headers.ts holds the reader itself).
 */

import type { FlatHeaders } from './headers.js'
import { BAD_PAIR, byteString, initString } from './header-checks.js'

export function notAnInit(): TypeError {
  return new TypeError(
    'Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.',
  )
}

/** A record's own enumerable entries, values converted to strings (a Symbol refused). */
export function flattenRecord(init: Record<string, unknown>, out: FlatHeaders): void {
  const start = out.length
  for (const name in init) {
    if (Object.prototype.hasOwnProperty.call(init, name)) {
      const value = init[name]
      if (typeof value === 'string') out.push(name, value)
      else {
        // Converting a value can be seen (toString): the platform has converted every key and value
        // before it to a ByteString by then, and this key too.
        convertedBefore(out, start)
        out.push(byteString(name), initString(value, `init["${name}"]`))
      }
    }
  }
}

const arrayValues = Array.prototype[Symbol.iterator]

/**
 * A sequence of pairs stepped with the iterator read off it, as the platform's WebIDL steps one: next()
 * read at each step, each item converted as it comes, no return() when a pair is refused (that happens
 * when the headers are filled, after the whole sequence: see BAD_PAIR).
 */
export function flattenSequence(init: object, iterator: (this: object) => unknown, out: FlatHeaders): void {
  if (iterator === arrayValues && Array.isArray(init)) return flattenPairList(init, out)
  const it = iteratorFrom(iterator.call(init))
  if (it === undefined) throw new TypeError('Headers constructor: init is not iterable.')
  for (let i = 0; ; i++) {
    const { done, value } = it.next()
    if (done) return
    pushPair(value, i, out)
  }
}

/**
 * An array of pairs (its own iterator the platform's). Pairs of two strings, as apps write them, are
 * read by index; their ByteString check comes with checkEntries, unless something that can be seen
 * (a toString, an iterator) runs first: see convertedBefore.
 */
function flattenPairList(init: unknown[], out: FlatHeaders): void {
  const start = out.length
  for (let i = 0; i < init.length; i++) {
    const pair = init[i]
    if (Array.isArray(pair) && pair.length === 2 && pair[Symbol.iterator] === arrayValues) {
      const name: unknown = pair[0]
      const value: unknown = pair[1]
      if (typeof name === 'string' && typeof value === 'string') out.push(name, value)
      else {
        convertedBefore(out, start)
        out.push(initString(name, `init[${i}][0]`), initString(value, `init[${i}][1]`))
      }
    } else {
      convertedBefore(out, start)
      pushPair(pair, i, out)
    }
  }
}

/** What the platform has converted to ByteStrings by the time user code runs (or a later check throws). */
export function convertedBefore(out: FlatHeaders, start: number): void {
  for (let i = start; i < out.length; i++) if (out[i] !== BAD_PAIR) byteString(out[i])
}

/** What an @@iterator call returned, if it is an iterator to step (an object with a next method). */
function iteratorFrom(it: unknown): Iterator<unknown> | undefined {
  if (it === null || (typeof it !== 'object' && typeof it !== 'function')) return undefined
  return typeof (it as { next?: unknown }).next === 'function' ? (it as Iterator<unknown>) : undefined
}

/** One item of a pair sequence, its items converted to ByteStrings, as a pair or BAD_PAIR and its count. */
function pushPair(pair: unknown, i: number, out: FlatHeaders): void {
  if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function')) {
    const shown = typeof pair === 'string' ? `"${pair}"` : typeof pair === 'symbol' ? pair.toString() : String(pair)
    throw new TypeError(`Headers constructor: init[${i}] (${shown}) is not iterable.`)
  }
  const iterator = (pair as Record<symbol, unknown>)[Symbol.iterator]
  const it = typeof iterator === 'function' ? iteratorFrom(iterator.call(pair)) : undefined
  if (it === undefined) throw new TypeError(`Headers constructor: init[${i}] is not iterable.`)
  const start = out.length
  let count = 0
  for (;;) {
    const { done, value } = it.next()
    if (done) break
    const item = initString(value, `init[${i}][${count}]`)
    if (count++ < 2) out.push(item)
  }
  if (count !== 2) {
    out.length = start
    out.push(BAD_PAIR, String(count))
  }
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
