/**
 * How the app's headers meet the ones earlier middleware already set on `res`: when a merge is needed,
 * the merge rules (Set-Cookie appended, Vary merged, framing dropped), the write, and the rollback
 * after an invalid header.
 */

import {
  OutgoingMessage,
  ServerResponse,
  validateHeaderName,
  validateHeaderValue,
  type OutgoingHttpHeader,
} from 'node:http'
import { isFramingName, sameName, type FlatHeaders } from '../core/headers.js'

// Middleware that wraps writeHead (on-headers ≤ 1.0.2, in morgan 1.10 and older compression and
// express-session) reads an array argument as [name, value] pairs: give such wrappers no list.
const nativeWriteHead = ServerResponse.prototype.writeHead

export function writeHead(res: ServerResponse, status: number, statusText: string, flat: FlatHeaders): void {
  // Node's slot: null while nothing was set, undefined on a response without one (HTTP/2's).
  const earlier = kOutHeaders === undefined ? undefined : (res as unknown as Slots)[kOutHeaders]
  // A writeHead not Node's own (a wrapper, node:http2's compatibility response) gets the merge path.
  const meets = res.writeHead !== nativeWriteHead ? MERGE : earlier === null ? APART : meetEarlier(res, earlier, flat)
  if (meets === MERGE) {
    // Node 20's writeHead applies a flat list with setHeader when earlier middleware set headers, so a
    // repeated name (two Set-Cookie) would keep only the last value, and Set-Cookie/Vary need merging
    // with the earlier values: replace the earlier values ourselves and append every line.
    if (earlier !== null) checkAll(res, flat)
    mergeWithOutgoing(res, flat)
    for (let i = 0; i < flat.length; i += 2) res.removeHeader(flat[i])
    return writeFromSlot(res, status, statusText, flat, true)
  }
  // Common case: each name once, nothing to merge.
  if (earlier !== null && earlier !== undefined) {
    // Headers set before the bridge (Express's X-Powered-By): the app's join them in Node's own slot,
    // replacing earlier values of the same names, one validation each. Given as a list, writeHead would
    // remove, append and set each name (validating twice); emptying the slot to send one list instead
    // made V8 allocate every later response's objects in old space (heap growth, major GCs under load).
    // Replacing one of them: the whole list is checked first, so that a refused header leaves the
    // earlier values for the error answer (setHeader checks one header at a time).
    if (meets === REPLACES) checkAll(res, flat)
    return writeFromSlot(res, status, statusText, flat, false)
  }
  // Nothing set before: Node validates the whole list before taking any of it and sends it as it is,
  // repeated names included.
  try {
    if (statusText === '') res.writeHead(status, flat)
    else res.writeHead(status, statusText, flat)
  } catch (err) {
    dropHeaders(res, flat)
    throw err
  }
  if (earlier === null) keepLater(res, flat)
}

/**
 * The app's lines put into Node's slot one at a time (appended to, or replacing, what is there), then the
 * head written from the slot. A header Node refuses drops the app's lines set so far.
 */
function writeFromSlot(
  res: ServerResponse,
  status: number,
  statusText: string,
  flat: FlatHeaders,
  append: boolean,
): void {
  try {
    if (append) for (let i = 0; i < flat.length; i += 2) res.appendHeader(flat[i], flat[i + 1])
    else for (let i = 0; i < flat.length; i += 2) res.setHeader(flat[i], flat[i + 1])
  } catch (err) {
    dropHeaders(res, flat)
    throw err
  }
  if (statusText === '') res.writeHead(status)
  else res.writeHead(status, statusText)
}

// Node keeps the headers set with setHeader() in this slot; writeHead(status, list) on a response that
// has none sends the list without keeping it, and then res.getHeaders() / getHeader() on 'finish'
// (loggers, metrics) would see nothing. The list itself is left in that slot (no new property on `res`),
// and turned into Node's own layout only when one of the getters below is called on that response;
// after the head is written nothing else in Node reads the slot.
const kOutHeaders = Object.getOwnPropertySymbols(new OutgoingMessage()).find((s) => s.description === 'kOutHeaders')
const GETTERS = ['getHeader', 'getHeaders', 'getHeaderNames', 'getRawHeaderNames', 'hasHeader'] as const
let gettersWrapped = false

type Slots = Record<symbol, unknown>

function keepLater(res: ServerResponse, flat: FlatHeaders): void {
  ;(res as unknown as Slots)[kOutHeaders!] = flat
  if (!gettersWrapped) wrapGetters()
}

function wrapGetters(): void {
  gettersWrapped = true
  const proto = ServerResponse.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  for (const name of GETTERS) {
    const original = proto[name]
    if (typeof original !== 'function') continue
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      // One fixed argument, no rest/apply: hasHeader() runs on every answer (see meetEarlier).
      value: function (this: Slots, name: unknown) {
        const flat = this[kOutHeaders!]
        if (Array.isArray(flat)) this[kOutHeaders!] = kept(flat)
        return original.call(this, name)
      },
    })
  }
}

// Node's slot has no prototype (a header may be named "constructor"); instances of this stay fast objects.
function Kept(): void {}
Kept.prototype = Object.create(null)

function kept(flat: FlatHeaders): Record<string, [string, string | string[]]> {
  const out: Record<string, [string, string | string[]]> = new (Kept as unknown as new () => never)()
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    const key = name.toLowerCase()
    const entry = out[key]
    if (entry === undefined) out[key] = [name, flat[i + 1]]
    else if (Array.isArray(entry[1])) entry[1].push(flat[i + 1])
    else entry[1] = [entry[1], flat[i + 1]]
  }
  return out
}

/** After an invalid header name or value (CR/LF…) nothing was sent and the caller answers 500: drop
 * the app's headers set so far so the error page does not carry half of them. */
function dropHeaders(res: ServerResponse, flat: FlatHeaders): void {
  if (res.headersSent) return
  for (let i = 0; i < flat.length; i += 2) {
    if (typeof flat[i] === 'string') {
      try {
        res.removeHeader(flat[i])
      } catch {
        // an invalid name was never set
      }
    }
  }
}

/** How the app's headers meet the ones set before: {@link meetEarlier}. */
const APART = 0
const REPLACES = 1
const MERGE = 2

/**
 * How the app's headers meet headers set before (`earlier`: Node's slot, keyed by lower-case name, or
 * undefined to ask `res`), in one pass: MERGE when they need {@link mergeWithOutgoing} and one-by-one
 * appending (framing headers set before, Set-Cookie or Vary on both sides, a name the app repeats),
 * REPLACES when the app names a header set before, APART otherwise. Looked up by name: the slot is a
 * dictionary-mode object, and enumerating it costs more than a few lookups.
 */
function meetEarlier(res: ServerResponse, earlier: unknown, flat: FlatHeaders): number {
  if (has(res, earlier, 'content-length') || has(res, earlier, 'transfer-encoding')) return MERGE
  let meets = APART
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    for (let j = 0; j < i; j += 2) if (sameName(flat[j], name)) return MERGE
    // The framing names were looked up above (the answer's own Content-Length is in every fixed answer).
    if (isFramingName(name)) continue
    if (has(res, earlier, hasUpperCase(name) ? name.toLowerCase() : name)) {
      if (sameName(name, 'set-cookie') || sameName(name, 'vary')) return MERGE
      meets = REPLACES
    }
  }
  return meets
}

type Lenient = { _isLenientHeaderValidation?: () => boolean }

/**
 * Node's checks of every header of the list before any of it touches `res`: when earlier values are
 * about to be replaced or merged, a refused header must leave them for the error answer.
 */
function checkAll(res: ServerResponse, flat: FlatHeaders): void {
  // Node 22+ accepts a few more bytes in values with insecureHTTPParser; Node 20 has no such mode.
  const lenient =
    typeof (res as Lenient)._isLenientHeaderValidation === 'function' && (res as Lenient)._isLenientHeaderValidation!()
  const checkValue = validateHeaderValue as (name: string, value: unknown, lenient: boolean) => void
  for (let i = 0; i < flat.length; i += 2) {
    validateHeaderName(flat[i])
    checkValue(flat[i], flat[i + 1], lenient)
  }
}

function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if (c >= 65 && c <= 90) return true
  }
  return false
}

// Node's own hasHeader, past the getter wrappers below: before the head is written there is nothing to fill in.
const hasHeader = OutgoingMessage.prototype.hasHeader

/** Whether a header was set before: read from Node's slot (keyed by lower-case name) when there is one. */
function has(res: ServerResponse, earlier: unknown, lower: string): boolean {
  if (earlier === undefined) return hasHeader.call(res, lower)
  return (earlier as Record<string, unknown>)[lower] !== undefined
}

function asList(value: OutgoingHttpHeader): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)]
}

/**
 * Combine headers that earlier middleware set on `res` (cors, helmet, `res.cookie()`) with the app's:
 * Set-Cookie lines are appended after the existing ones, Vary tokens are merged, and for any other
 * header the app's value replaces the earlier one. Content-Length and Transfer-Encoding set earlier are
 * dropped: only the app's Response can describe its body.
 */
export function mergeWithOutgoing(res: ServerResponse, flat: FlatHeaders): void {
  // Framing belongs to the app's Response: a length set earlier cannot describe its body.
  if (res.hasHeader('content-length')) res.removeHeader('content-length')
  if (res.hasHeader('transfer-encoding')) res.removeHeader('transfer-encoding')
  let vary = -1
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    if (sameName(name, 'set-cookie')) {
      const existing = res.getHeader('set-cookie')
      if (existing !== undefined) {
        // writeHead replaces a header named in its list: put the earlier cookies first.
        const lines = asList(existing)
        const extra: string[] = []
        for (const line of lines) extra.push('set-cookie', line)
        flat.splice(i, 0, ...extra)
        res.removeHeader('set-cookie')
        i += extra.length
      }
    } else if (sameName(name, 'vary')) {
      vary = i
    }
  }
  if (vary !== -1) {
    const existing = res.getHeader('vary')
    if (existing !== undefined) {
      const tokens: string[] = []
      const seen = new Set<string>()
      const add = (list: string) => {
        for (const token of list.split(',')) {
          const t = token.trim()
          if (t !== '' && !seen.has(t.toLowerCase())) {
            seen.add(t.toLowerCase())
            tokens.push(t)
          }
        }
      }
      for (const v of asList(existing)) add(v)
      add(flat[vary + 1])
      flat[vary + 1] = seen.has('*') ? '*' : tokens.join(', ')
    }
  }
}
