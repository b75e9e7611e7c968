/**
 * What the Response constructor checks in its init, and the init its static factories build: the
 * WebIDL and Fetch-spec rules a LightResponse must apply exactly as the platform does.
 */

import type { HeadersInit } from '../core/fetch-types.js'
import type { FlatHeaders } from '../core/headers.js'
import { flattenChecked, headersFromChecked, LightHeaders } from '../core/light-headers.js'
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

/** `init.status` converted and range-checked (200 to 599). */
export function initStatus(value: unknown): number {
  const status = toStatus(value)
  if (status < 200 || status > 599)
    throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`)
  return status
}

/** `init.statusText` converted and checked against the reason-phrase grammar. */
export function initStatusText(value: unknown): string {
  const text = String(value)
  if (!REASON_PHRASE.test(text)) throw new TypeError('Invalid statusText')
  return text
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

/**
 * A Response init's `headers`, read as its constructor reads them: one of these Headers is copied as
 * one (its entries are checked already, and a later read of `response.headers` needs no rebuilding);
 * anything else becomes a checked flat list.
 */
export function readResponseInit(init: HeadersInit): Headers | FlatHeaders {
  const flat: FlatHeaders = []
  return flattenChecked(init, flat) ? flat : new LightHeaders(init)
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
