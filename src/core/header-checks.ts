/**
 * The Fetch Headers class's conversions and checks of names and values, with the platform's order and
 * error messages (ByteString first, then the token rule and the value rule), for the Map-backed
 * Headers (light-headers.ts). Names checked once are remembered; values of such names take one scan.
 */

import type { FlatHeaders } from './headers.js'

// RFC 9110 token; a value may hold neither NUL, CR nor LF once its leading/trailing whitespace is cut.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const INVALID_VALUE = /[\0\r\n]/
const WIDE = /[^\0-\xff]/
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g
// Anything either value check looks at: past 0xFF, or a control character other than tab.
const SUSPECT = /[^\t\x20-\xff]/

/**
 * A name checked before, as written: its lower case, and the last value accepted for it. An app sets
 * the same few names on every response, mostly to the same values (cors, secure-headers): such a value
 * is known good by one comparison instead of a scan.
 */
export interface KnownName {
  readonly lower: string
  /** Starts as the empty value, which is plain: never undefined, which a caller may pass (and must convert). */
  value: string
}
const knownNames = new Map<string, KnownName>()

/** WebIDL ByteString conversion: ToString (a Symbol throws), then no character past 0xFF. */
export function byteString(value: unknown): string {
  if (typeof value !== 'string') {
    if (typeof value === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string')
    value = String(value)
  }
  const text = value as string
  if (WIDE.test(text)) {
    const i = text.search(WIDE)
    throw new TypeError(
      `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${text.charCodeAt(i)} which is greater than 255.`,
    )
  }
  return text
}

/** A header name, checked, in lower case (the platform's order: ByteString first, then the token rule). */
function headerName(method: string, text: string): string {
  const known = knownNames.get(text)
  if (known !== undefined) return known.lower
  if (!TOKEN.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header name.`)
  const lower = text.toLowerCase()
  if (knownNames.size < 1024) knownNames.set(text, { lower, value: '' })
  return lower
}

/** A value without its leading and trailing HTTP whitespace (the string itself when it has none). */
export function trimEdges(text: string): string {
  const n = text.length
  if (n === 0 || (text.charCodeAt(0) > 32 && text.charCodeAt(n - 1) > 32)) return text
  return text.replace(EDGE_WHITESPACE, '')
}

/** A value with its edge whitespace cut, checked: no NUL, CR or LF left. */
function headerValue(method: string, raw: string): string {
  const text = trimEdges(raw)
  if (INVALID_VALUE.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header value.`)
  return text
}

/** `name(key)` for the one-argument methods. */
export function name(method: string, key: unknown): string {
  return headerName(method, byteString(key))
}

/**
 * A name checked before (so a valid ByteString token); undefined for anything else, which
 * {@link entry} then converts and checks in the platform's order.
 */
export function knownName(key: unknown): KnownName | undefined {
  return typeof key === 'string' ? knownNames.get(key) : undefined
}

/**
 * A value for a name known valid. The name's last plain value passes by comparison; any other takes
 * one scan for what either check could refuse (a character past 0xFF, a control character but tab) or
 * edge whitespace to cut, and only such a value takes the full path.
 */
export function plainValue(method: string, value: unknown, known: KnownName): string {
  if (value === known.value) return value as string
  if (typeof value === 'string' && trimEdges(value) === value && !SUSPECT.test(value)) {
    // A long value is not kept: a name's memo is meant for short constants.
    if (value.length <= 1024) known.value = value
    return value
  }
  return headerValue(method, byteString(value))
}

/**
 * Stands, with the item count, for a pair of other than two items in a flattened init: the platform
 * converts the whole sequence first and refuses such a pair only when it fills the headers.
 */
export const BAD_PAIR = Symbol('express-fetch-bridge/bad-pair') as unknown as string

function pairLength(found: number): TypeError {
  return new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${found}.`)
}

/**
 * A flattened init's names and values, checked in place as the platform's Headers constructor checks
 * them (its TypeErrors, its order): names to lower case, values with their edge whitespace cut. A
 * name's remembered value passes by comparison, so a constant Content-Type costs one lookup.
 */
export function checkEntries(flat: FlatHeaders): void {
  // Leading entries whose name and value were both accepted before pass every check: one lookup each.
  let start = 0
  for (; start < flat.length; start += 2) {
    const known = knownName(flat[start])
    if (known === undefined || flat[start + 1] !== known.value) break
    flat[start] = known.lower
  }
  // WebIDL converts the whole init to ByteStrings before the first name or value is checked.
  for (let i = start; i < flat.length; i += 2) {
    if (flat[i] === BAD_PAIR) continue
    const known = knownName(flat[i])
    if (known === undefined) byteString(flat[i])
    if (known === undefined || flat[i + 1] !== known.value) byteString(flat[i + 1])
  }
  for (let i = start; i < flat.length; i += 2) {
    // A pair of other than two items is refused where the platform's fill() meets it, in order.
    if (flat[i] === BAD_PAIR) throw pairLength(Number(flat[i + 1]))
    const known = knownName(flat[i])
    if (known === undefined) {
      const [lower, text] = entry('append', flat[i], flat[i + 1])
      flat[i] = lower
      flat[i + 1] = text
    } else {
      flat[i] = known.lower
      flat[i + 1] = plainValue('append', flat[i + 1], known)
    }
  }
}

/** The name and value of append() and set(), converted and checked in the platform's order. */
export function entry(method: string, key: unknown, value: unknown): [string, string] {
  const rawName = byteString(key)
  const rawValue = byteString(value)
  const lower = headerName(method, rawName)
  return [lower, headerValue(method, rawValue)]
}

export function required(method: string, count: number, needed: number): void {
  if (count < needed) {
    const only = count > 0 ? 'only ' : ''
    throw new TypeError(
      `Headers.${method}: ${needed} argument${needed > 1 ? 's' : ''} required, but ${only}${count} found.`,
    )
  }
}

/** ByteString conversion of one item of a Headers init, a Symbol refused with the item's label. */
export function initString(value: unknown, where: string): string {
  if (typeof value === 'symbol') {
    throw new TypeError(`Headers constructor: ${where} is a symbol, which cannot be converted to a ByteString.`)
  }
  return byteString(value)
}
