/**
 * The `headers` of a LightResponse: a Headers (`instanceof Headers`, same methods, checks, errors and
 * sorted iteration) kept in a Map, so everyday Hono middleware's `headers.set()` calls and the
 * serializer's read cost a Map's work, not the platform's validated sorted list per response. Platform
 * code reads it through its iterator, as any HeadersInit. Also the one reader of a HeadersInit and of
 * any Headers into a flat list (`flattenInit`, `flattenHeaders`).
 */

import type { HeadersInit } from './fetch-types.js'
import type { FlatHeaders } from './headers.js'
import { PlatformHeaders } from './platform.js'
import { processShared } from './process-shared.js'
import { matchEnumerability } from './delegate.js'
import { ENTRIES, headersIterator, KEYS, VALUES } from './headers-iterator.js'
import { flattenForeign, flattenRecord, flattenSequence, notAnInit } from './headers-init.js'
import { checkEntries, entry, knownName, name, plainValue, required, trimEdges } from './header-checks.js'
const INSPECT = Symbol.for('nodejs.util.inspect.custom')
// What console.log shows: `Headers { name: value }`, as for the platform's.
const InspectedHeaders = { Headers: class {} }.Headers

const platform = PlatformHeaders.prototype

function pushEntry(this: FlatHeaders, value: string, name: string): void {
  this.push(name, value)
}

// Never modified: a Headers replaces it with a list of its own before adding a line.
const NO_COOKIES: string[] = []

// Filled in by the class's static block: module-internal access to its private state.
let flatInto!: (headers: LightHeadersImpl, out: FlatHeaders) => void
let isLight!: (value: unknown) => value is LightHeadersImpl
let fromChecked!: (flat: FlatHeaders) => LightHeadersImpl
let copyOf!: (from: LightHeadersImpl) => LightHeadersImpl

class LightHeadersImpl {
  /** Lower-case name → combined value, for every name but set-cookie. */
  #map = new Map<string, string>()
  /** Set-Cookie lines, never combined; the shared empty list until the first (most responses have none). */
  #cookies: string[] = NO_COOKIES
  /** The sorted list until the next change: iteration reads it at every step, as the platform's does. */
  #list: Array<[string, string]> | undefined

  constructor(init?: HeadersInit) {
    if (init === undefined) return
    const flat: FlatHeaders = []
    // A copy of one of these (Hono's context copies a response's headers): its entries are checked already.
    if (flattenChecked(init, flat)) this.#addAll(flat)
    else this.#copyFrom(init as unknown as LightHeadersImpl)
  }

  #copyFrom(from: LightHeadersImpl): void {
    // Entry by entry: half the cost of `new Map(map)` for a few headers. Read back as a value, a
    // combined one ending in an empty line ("v, ") loses its edge whitespace.
    const map = this.#map
    for (const [n, v] of from.#map) map.set(n, trimEdges(v))
    if (from.#cookies.length > 0) this.#cookies = from.#cookies.slice()
  }

  append(key: string, value: string): void {
    if (!(#map in this)) return platform.append.call(this, key, value)
    required('append', arguments.length, 2)
    const known = knownName(key)
    if (known === undefined) {
      const [lower, text] = entry('append', key, value)
      this.#add(lower, text)
    } else this.#add(known.lower, plainValue('append', value, known))
  }

  /** append() of a name and value checked already (lower case, edges cut). */
  #add(lower: string, text: string): void {
    this.#list = undefined
    if (lower === 'set-cookie') {
      if (this.#cookies === NO_COOKIES) this.#cookies = [text]
      else this.#cookies.push(text)
      return
    }
    const existing = this.#map.get(lower)
    // The platform joins Cookie lines as a Cookie header joins them (RFC 6265 §5.4), any other name with ", ".
    this.#map.set(lower, existing === undefined ? text : `${existing}${lower === 'cookie' ? '; ' : ', '}${text}`)
  }

  #addAll(flat: FlatHeaders): void {
    for (let i = 0; i < flat.length; i += 2) this.#add(flat[i], flat[i + 1])
  }

  set(key: string, value: string): void {
    if (!(#map in this)) return platform.set.call(this, key, value)
    required('set', arguments.length, 2)
    const known = knownName(key)
    const [lower, text] =
      known === undefined ? entry('set', key, value) : [known.lower, plainValue('set', value, known)]
    this.#list = undefined
    if (lower === 'set-cookie') this.#cookies = [text]
    else this.#map.set(lower, text)
  }

  get(key: string): string | null {
    if (!(#map in this)) return platform.get.call(this, key)
    required('get', arguments.length, 1)
    const lower = knownName(key)?.lower ?? name('get', key)
    if (lower === 'set-cookie') return this.#cookies.length === 0 ? null : this.#cookies.join(', ')
    return this.#map.get(lower) ?? null
  }

  has(key: string): boolean {
    if (!(#map in this)) return platform.has.call(this, key)
    required('has', arguments.length, 1)
    const lower = knownName(key)?.lower ?? name('has', key)
    return lower === 'set-cookie' ? this.#cookies.length > 0 : this.#map.has(lower)
  }

  delete(key: string): void {
    if (!(#map in this)) return platform.delete.call(this, key)
    required('delete', arguments.length, 1)
    const lower = knownName(key)?.lower ?? name('delete', key)
    this.#list = undefined
    if (lower === 'set-cookie') this.#cookies = NO_COOKIES
    else this.#map.delete(lower)
  }

  getSetCookie(): string[] {
    if (!(#map in this)) return platform.getSetCookie.call(this)
    return this.#cookies.slice()
  }

  /** The platform's order: names sorted, each Set-Cookie line on its own. */
  #sorted(): Array<[string, string]> {
    if (this.#list !== undefined) return this.#list
    const names = [...this.#map.keys()]
    if (this.#cookies.length > 0) names.push('set-cookie')
    names.sort()
    const out: Array<[string, string]> = []
    for (const n of names) {
      if (n === 'set-cookie') for (const cookie of this.#cookies) out.push([n, cookie])
      else out.push([n, this.#map.get(n)!])
    }
    return (this.#list = out)
  }

  // WebIDL's default: no thisArg (or undefined) calls back with the global object.
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg: unknown = globalThis): void {
    if (!(#map in this)) return platform.forEach.call(this, callback, thisArg)
    required('forEach', arguments.length, 1)
    if (typeof callback !== 'function') {
      throw new TypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.")
    }
    // Through the iterator, as the platform's: changes made by the callback are seen.
    for (const [n, v] of this.entries()) callback.call(thisArg, v, n, this as unknown as Headers)
  }

  entries(): IterableIterator<[string, string]> {
    if (!(#map in this)) return platform.entries.call(this)
    return headersIterator(() => this.#sorted(), ENTRIES)
  }

  keys(): IterableIterator<string> {
    if (!(#map in this)) return platform.keys.call(this)
    return headersIterator(() => this.#sorted(), KEYS)
  }

  values(): IterableIterator<string> {
    if (!(#map in this)) return platform.values.call(this)
    return headersIterator(() => this.#sorted(), VALUES)
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }

  /** True for the platform's Headers too: this class is the global `Headers` the bridge installs. */
  static [Symbol.hasInstance](this: unknown, value: unknown): boolean {
    // Subclasses (`class X extends Headers`) keep the ordinary prototype-chain check.
    if (this !== LightHeadersImpl) return Function.prototype[Symbol.hasInstance].call(this, value)
    return isLight(value) || value instanceof PlatformHeaders
  }

  [INSPECT](): object {
    const shown: Record<string, string | string[]> = {}
    for (const [n, v] of this.#map) shown[n] = v
    if (this.#cookies.length > 0)
      shown['set-cookie'] = this.#cookies.length === 1 ? this.#cookies[0] : this.#cookies.slice()
    return Object.assign(new InspectedHeaders(), shown)
  }

  static {
    flatInto = (headers, out) => {
      // forEach, not for-of: no [name, value] array per entry.
      headers.#map.forEach(pushEntry, out)
      for (const cookie of headers.#cookies) out.push('set-cookie', cookie)
    }
    isLight = (value) => typeof value === 'object' && value !== null && #map in value
    fromChecked = (flat) => {
      const headers = new LightHeadersImpl()
      headers.#addAll(flat)
      return headers
    }
    copyOf = (from) => {
      const headers = new LightHeadersImpl()
      headers.#copyFrom(from)
      return headers
    }
  }
}

// `instanceof Headers` holds; the platform's own methods are all overridden. Called on a platform
// Headers (`Headers.prototype.get.call(fetchResponse.headers)` once this class is the global), each
// method hands the call to the platform's.
Object.setPrototypeOf(LightHeadersImpl.prototype, PlatformHeaders.prototype)
// WebIDL: @@iterator is the entries function itself (a subclass's entries() changes neither for-of nor a copy).
const entries = { value: LightHeadersImpl.prototype.entries, writable: true, configurable: true }
Object.defineProperty(LightHeadersImpl.prototype, Symbol.iterator, entries)
matchEnumerability(LightHeadersImpl, PlatformHeaders)
Object.defineProperty(LightHeadersImpl, 'name', { value: 'Headers' })
Object.defineProperty(LightHeadersImpl, 'length', { value: 0 }) // the platform's: init is optional

// One class per process across copies of the package (ESM and CJS): the global is one of them, and
// a copy must know the other's instances as its own (isLight reads their private state).
const shared = processShared('light-headers@3', { LightHeadersImpl, flatInto, isLight, fromChecked, copyOf })

/**
 * A Headers object of the cheap kind; the bridge installs it as `globalThis.Headers` (with the global
 * Response), so the `new Headers()` of Hono's context and middleware is one too.
 */
export const LightHeaders = shared.LightHeadersImpl as unknown as typeof Headers
const {
  flatInto: sharedFlatInto,
  isLight: sharedIsLight,
  fromChecked: sharedFromChecked,
  copyOf: sharedCopyOf,
} = shared
const lightIterator = (LightHeaders.prototype as unknown as Record<symbol, unknown>)[Symbol.iterator]
const platformIterator = (PlatformHeaders.prototype as unknown as Record<symbol, unknown>)[Symbol.iterator]

// What flattenInit found: entries still to check, entries checked already, one of these Headers.
export const UNCHECKED = 0
const CHECKED = 1
export const LIGHT = 2

type Found = typeof UNCHECKED | typeof CHECKED | typeof LIGHT

/**
 * Flatten a HeadersInit without building a Headers object, with the platform's TypeErrors (a pair of
 * other than two items, an init neither an object nor a sequence). One of these Headers is left to
 * the caller (LIGHT: nothing flattened), whose copy of it needs no list.
 */
export function flattenInit(init: HeadersInit | undefined, out: FlatHeaders): Found {
  if (init === undefined) return UNCHECKED
  // WebIDL: an init must be an object first (null too; a string is iterable, but not a sequence of pairs).
  if (init === null || (typeof init !== 'object' && typeof init !== 'function')) throw notAnInit()
  // The iterator is read once, as the platform reads it. Records (Hono's c.json) read it at a site of their
  // own, and never reach the brand check: sites shared with a shape per literal go megamorphic.
  const proto = Object.getPrototypeOf(init) as object | null
  let iterator: unknown
  if (proto === Object.prototype || proto === null) {
    iterator = (init as unknown as Record<symbol, unknown>)[Symbol.iterator]
    if (typeof iterator !== 'function') {
      flattenRecord(init as unknown as Record<string, unknown>, out)
      return UNCHECKED
    }
  } else iterator = (init as unknown as Record<symbol, unknown>)[Symbol.iterator]
  // A Headers is read by its iterator too: its own state is used only while that is its class's own.
  if (iterator === lightIterator && sharedIsLight(init)) return LIGHT
  if (iterator === platformIterator && init instanceof PlatformHeaders && !sharedIsLight(init)) {
    // Checked already, but a combined value ("v, " from an empty line appended) is trimmed when copied.
    // Stepped with the iterator read above: a getter for it runs once, as on the platform.
    const it = (platformIterator as (this: Headers) => Iterator<[string, string]>).call(init)
    for (let step = it.next(); step.done !== true; step = it.next()) out.push(step.value[0], trimEdges(step.value[1]))
    return CHECKED
  }
  if (typeof iterator === 'function') flattenSequence(init, iterator as (this: object) => unknown, out)
  else flattenRecord(init as unknown as Record<string, unknown>, out)
  return UNCHECKED
}

/**
 * {@link flattenInit}, then a record's or pair list's names and values checked as the platform's
 * Headers constructor checks them (a Headers object's are checked already). False for one of these
 * Headers, left to the caller (nothing flattened): a copy of it is made from its own state.
 */
function flattenChecked(init: HeadersInit | undefined, out: FlatHeaders): boolean {
  const found = flattenInit(init, out)
  if (found === UNCHECKED) checkEntries(out)
  return found !== LIGHT
}

/** A copy of one of these Headers (what {@link flattenInit} leaves to the caller as LIGHT). */
export function headersCopiedFrom(light: Headers): Headers {
  return sharedCopyOf(light as unknown as LightHeadersImpl) as unknown as Headers
}

/** A Headers of this kind holding a flat list's entries, checked already (from {@link flattenChecked}). */
export function headersFromChecked(flat: FlatHeaders): Headers {
  return sharedFromChecked(flat) as unknown as Headers
}

/**
 * Flatten a Headers object; Set-Cookie values stay separate lines (iteration keeps them apart). Another
 * implementation's Headers that only has forEach() gives its Set-Cookie lines through getSetCookie().
 */
export function flattenHeaders(headers: Headers, out: FlatHeaders): void {
  if (sharedIsLight(headers)) sharedFlatInto(headers, out)
  else flattenForeign(headers, out)
}
