/**
 * What the Response constructor checks in its init, and the init its static factories build: the
 * WebIDL and Fetch-spec rules a LightResponse must apply exactly as the platform does.
 */

import type { HeadersInit } from '../core/fetch-types.js'
import type { FlatHeaders } from '../core/headers.js'
import { byteString, checkEntries } from '../core/header-checks.js'
import { convertedBefore } from '../core/headers-init.js'
import {
  flattenInit,
  headersCopiedFrom,
  headersFromChecked,
  LIGHT,
  LightHeaders,
  UNCHECKED,
} from '../core/light-headers.js'
import { defaultContentType, type FastBody } from './response-body.js'

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' })
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])
// reason-phrase = *( HTAB / SP / VCHAR / obs-text )
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/

/** WebIDL `unsigned short` conversion, as the Response constructor applies it to `status`. */
function toStatus(value: unknown): number {
  if (typeof value === 'number' && (value | 0) === value && value >= 0 && value < 65536) return value
  const n = Math.trunc(Number(value))
  return Number.isFinite(n) ? ((n % 65536) + 65536) % 65536 : 0
}

/** A body with a null-body status (204, 304…) is a TypeError. */
export function assertBodyAllowed(status: number): void {
  if (NULL_BODY_STATUS.has(status)) throw new TypeError(`Response constructor: Invalid response status code ${status}`)
}

/** `Response.json(data, init)`: the body text and the init, with the JSON Content-Type unless set. */
export function jsonInit(data: unknown, init: ResponseInit | undefined): [string, ResponseInit] {
  const text = JSON.stringify(data)
  if (text === undefined) throw new TypeError('Value is not JSON serializable')
  let headers: HeadersInit = JSON_HEADERS
  if (init?.headers != null) {
    headers = new Headers(init.headers)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return [
    text,
    {
      headers,
      ...(init?.status !== undefined ? { status: init.status } : {}),
      ...(init?.statusText !== undefined ? { statusText: init.statusText } : {}),
    },
  ]
}

/** What {@link readInit} read off a Response's init: one object, reused (the constructor reads it at once). */
export interface InitRead {
  status: number | undefined
  statusText: string | undefined
  /** The init's headers as a checked flat list, or (one of these Headers given) `copied`. */
  flat: FlatHeaders | undefined
  copied: Headers | undefined
}
const read: InitRead = { status: undefined, statusText: undefined, flat: undefined, copied: undefined }

/**
 * A Response's init read as the platform reads the dictionary: each member read once and converted,
 * in WebIDL's order (headers, status, statusText; Node 24's), then status and statusText checked, then
 * the headers filled (a pair's length, names, values).
 */
export function readInit(init: ResponseInit): InitRead {
  const headers = init.headers
  let flat: FlatHeaders | undefined
  let found = UNCHECKED
  if (headers !== undefined) found = flattenInit(headers, (flat = []))
  const rawStatus = init.status
  const status = rawStatus === undefined ? undefined : toStatus(rawStatus)
  const rawText = init.statusText
  const statusText = rawText === undefined ? undefined : byteString(rawText)
  const refused =
    status !== undefined && (status < 200 || status > 599)
      ? new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`)
      : statusText !== undefined && !REASON_PHRASE.test(statusText)
        ? new TypeError('Invalid statusText')
        : undefined
  if (refused !== undefined) {
    // The headers' conversion came first on the platform: a name or value past 0xFF is its error.
    if (flat !== undefined && found === UNCHECKED) convertedBefore(flat, 0)
    throw refused
  }
  read.status = status
  read.statusText = statusText
  read.flat = read.copied = undefined
  if (found === LIGHT) read.copied = headersCopiedFrom(headers as Headers)
  else if (flat !== undefined) {
    if (found === UNCHECKED) checkEntries(flat)
    read.flat = flat
  }
  return read
}

/** The Headers a real Response would have: the init's, plus the Content-Type its body implies. */
export function headersOf(flat: FlatHeaders | undefined, body: FastBody): Headers {
  return withBodyType(flat === undefined ? new LightHeaders() : headersFromChecked(flat), body)
}

/** `headers` given the Content-Type the body implies, unless it has one. */
export function withBodyType(headers: Headers, body: FastBody): Headers {
  const type = defaultContentType(body)
  if (type !== undefined && !headers.has('content-type')) headers.set('content-type', type)
  return headers
}
