/**
 * A lightweight Response that keeps (status, body, headers init) for the bodies the serializer can
 * send without a real Response: string, ArrayBuffer(View), Blob, URLSearchParams, ReadableStream and
 * null. `status`, `ok`, `statusText` and `headers` are served from those fields; any other member
 * materialises a real Response once and delegates to it. The idea comes from @hono/node-server's
 * response cache; streams are kept too so the serializer can flush headers at once.
 */

import { delegateRemaining } from './delegate.js'
import type { BodyInit, HeadersInit, ResponseType } from './fetch-types.js'

/**
 * State shared by every copy of this module in the process (the ESM and the CJS build can both be
 * loaded): one original Response, one lightweight class, one installer — otherwise a copy loaded
 * after the global was replaced would take the other copy's class for the platform's, and each
 * copy's fast path would miss the other's responses.
 */
interface Shared {
  OriginalResponse: typeof Response
  LightResponse: typeof LightResponseImpl
  fillLightState: (response: unknown, out: LightState) => boolean
  installGlobalResponse: () => void
}
const SHARED = Symbol.for('express-fetch-bridge/response@2')
const registered = (globalThis as { [SHARED]?: Shared })[SHARED]

/** The platform's Response, captured before anything replaces the global. */
export const OriginalResponse: typeof Response = registered?.OriginalResponse ?? globalThis.Response

export type FastBody = string | ArrayBuffer | ArrayBufferView | Blob | URLSearchParams | ReadableStream | null

export const TEXT_PLAIN = 'text/plain;charset=UTF-8'
export const FORM_URLENCODED = 'application/x-www-form-urlencoded;charset=UTF-8'

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308])
// reason-phrase = *( HTAB / SP / VCHAR / obs-text )
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/

function isFastBody(body: unknown): body is FastBody {
  return (
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ReadableStream
  )
}

/** WebIDL `unsigned short` conversion, as the Response constructor applies it to `status`. */
function toStatus(value: unknown): number {
  if (typeof value === 'number' && (value | 0) === value && value >= 0 && value < 65536) return value
  const n = Math.trunc(Number(value))
  return Number.isFinite(n) ? ((n % 65536) + 65536) % 65536 : 0
}

/** The Content-Type a real Response derives from its body when the headers have none. */
export function defaultContentType(body: FastBody): string | undefined {
  if (typeof body === 'string') return TEXT_PLAIN
  if (body instanceof URLSearchParams) return FORM_URLENCODED
  if (body instanceof Blob) return body.type || undefined
  return undefined
}

// Filled in by the class's static block: module-internal access to private state for the serializer.
let fastState!: (r: LightResponseImpl, out: LightState) => boolean
let realOf!: (r: LightResponseImpl) => Response
let brand!: (v: object) => boolean

/** What the serializer needs from a LightResponse that has not been materialised. */
export interface LightState {
  status: number
  statusText: string
  body: FastBody
  /** The Headers object if someone asked for `headers`, else undefined (then use `init`). */
  headers: Headers | undefined
  init: HeadersInit | undefined
  /** Length of the body of the Response this one was built from (`new Response(null, res)`), for HEAD. */
  headLength: number | undefined
  /** That Response's stream body, which nobody else will read: cancelled when a HEAD response is sent. */
  headSource: ReadableStream | undefined
}

class LightResponseImpl {
  #status = 200
  #statusText = ''
  #body: FastBody = null
  #init: HeadersInit | undefined
  #headers: Headers | undefined
  #real: Response | undefined
  #headLength: number | undefined
  #headSource: ReadableStream | undefined

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    if (body != null && !isFastBody(body)) {
      // FormData, async iterables…: let the platform handle (and validate) them.
      this.#real = new OriginalResponse(body, init)
      return
    }
    if (init != null) {
      if (typeof init !== 'object') throw new TypeError("Failed to construct 'Response': init must be an object")
      if (init.status !== undefined) {
        const status = toStatus(init.status)
        if (status < 200 || status > 599) {
          throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`)
        }
        this.#status = status
      }
      if (init.statusText !== undefined) {
        const text = String(init.statusText)
        if (!REASON_PHRASE.test(text)) throw new TypeError('Invalid statusText')
        this.#statusText = text
      }
      this.#init = init.headers
      if (body === null || body === undefined) {
        // `new Response(null, res)` (Hono's HEAD handling): remember the GET body's length, and its
        // stream so the serializer can cancel it. `instanceof` would also accept a platform Response.
        if (#body in init) {
          const source = init.#body
          if (source instanceof ReadableStream) this.#headSource = init.#real === undefined ? source : init.#real.body ?? undefined
          else this.#headLength = lengthOf(source)
        } else if (init instanceof OriginalResponse) {
          this.#headSource = (init as Response).body ?? undefined
        }
      }
    }
    if (body != null) {
      if (NULL_BODY_STATUS.has(this.#status)) {
        throw new TypeError(`Response constructor: Invalid response status code ${this.#status}`)
      }
      if (body instanceof ReadableStream && body.locked) {
        throw new TypeError('Response body object should not be disturbed or locked')
      }
      this.#body = body
    }
  }

  static {
    realOf = (r) => r.#materialize()
    brand = (v) => #body in v
    // Fills the caller's object: no allocation per response.
    fastState = (r, out) => {
      if (r.#real !== undefined) return false
      out.status = r.#status
      out.statusText = r.#statusText
      out.body = r.#body
      out.headers = r.#headers
      out.init = r.#init
      out.headLength = r.#headLength
      out.headSource = r.#headSource
      return true
    }
  }

  /** True for real Responses and lightweight ones, so the global can be replaced safely. */
  static [Symbol.hasInstance](this: Function, value: unknown): boolean {
    // Subclasses (`class X extends Response`) keep the ordinary prototype-chain check.
    if (this !== LightResponseImpl) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (#body in value || value instanceof OriginalResponse)
  }

  static json(data: unknown, init?: ResponseInit): Response {
    const text = JSON.stringify(data)
    if (text === undefined) throw new TypeError('Value is not JSON serializable')
    const headers = new Headers(init?.headers)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    return new LightResponseImpl(text, { status: init?.status, statusText: init?.statusText, headers }) as unknown as Response
  }

  static redirect(url: string | URL, status = 302): Response {
    const location = new URL(url).href // throws TypeError on an invalid URL, as the platform does
    if (!REDIRECT_STATUS.has(status)) throw new RangeError(`Invalid status code ${status}`)
    return new LightResponseImpl(null, { status, headers: { location } }) as unknown as Response
  }

  static error(): Response {
    return OriginalResponse.error()
  }

  #materialize(): Response {
    if (this.#real === undefined) {
      this.#real = new OriginalResponse(this.#body as BodyInit | null, {
        status: this.#status,
        statusText: this.#statusText,
        headers: this.#headers ?? this.#init,
      })
    }
    return this.#real
  }

  get status(): number {
    return this.#real ? this.#real.status : this.#status
  }
  get statusText(): string {
    return this.#real ? this.#real.statusText : this.#statusText
  }
  get ok(): boolean {
    const status = this.status
    return status >= 200 && status <= 299
  }
  get headers(): Headers {
    if (this.#headers === undefined) {
      if (this.#real) {
        this.#headers = this.#real.headers
      } else {
        const headers = new Headers(this.#init)
        const type = defaultContentType(this.#body)
        if (type !== undefined && !headers.has('content-type')) headers.set('content-type', type)
        this.#headers = headers
      }
    }
    return this.#headers
  }
  get type(): ResponseType {
    return this.#real ? this.#real.type : 'default'
  }
  get url(): string {
    return this.#real ? this.#real.url : ''
  }
  get redirected(): boolean {
    return this.#real ? this.#real.redirected : false
  }
  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : false
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.#materialize().body
  }
  clone(): Response {
    return this.#materialize().clone()
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#materialize().arrayBuffer()
  }
  blob(): Promise<Blob> {
    return this.#materialize().blob()
  }
  formData(): Promise<FormData> {
    return this.#materialize().formData()
  }
  json(): Promise<any> {
    return this.#materialize().json()
  }
  text(): Promise<string> {
    return this.#materialize().text()
  }
  get [Symbol.toStringTag](): string {
    return 'Response'
  }
}

// Members the platform may add later (e.g. `bytes()`) delegate to the real Response.
delegateRemaining(LightResponseImpl, OriginalResponse, realOf)
Object.defineProperty(LightResponseImpl, 'name', { value: 'LightResponse' })
Object.setPrototypeOf(LightResponseImpl.prototype, OriginalResponse.prototype)
Object.setPrototypeOf(LightResponseImpl, OriginalResponse)

function localFillLightState(response: unknown, out: LightState): boolean {
  return typeof response === 'object' && response !== null && brand(response) && fastState(response as LightResponseImpl, out)
}

/** Byte length of a fixed body, or undefined for streams and null. */
export function lengthOf(body: FastBody): number | undefined {
  if (body === null || body instanceof ReadableStream) return undefined
  if (typeof body === 'string') return Buffer.byteLength(body)
  if (body instanceof Blob) return body.size
  if (body instanceof URLSearchParams) return Buffer.byteLength(body.toString())
  return (body as ArrayBufferView | ArrayBuffer).byteLength
}

let installed = false

function localInstall(): void {
  if (installed) return
  installed = true
  if ((globalThis.Response as unknown) !== LightResponseImpl) {
    Object.defineProperty(globalThis, 'Response', {
      value: LightResponseImpl,
      writable: true,
      configurable: true,
      enumerable: false,
    })
  }
}

const shared: Shared = registered ?? {
  OriginalResponse,
  LightResponse: LightResponseImpl,
  fillLightState: localFillLightState,
  installGlobalResponse: localInstall,
}
if (registered === undefined) {
  Object.defineProperty(globalThis, SHARED, { value: shared, configurable: true })
}

/**
 * The lightweight Response: a faithful `Response` that the serializer sends without building a real
 * one when its body is a string, bytes, Blob, URLSearchParams, stream or null.
 */
export const LightResponse: typeof LightResponseImpl = shared.LightResponse
export type LightResponse = LightResponseImpl

/**
 * Serializer access: copies the fast-path state into `out` and returns true, or returns false for
 * anything but a LightResponse that has not been materialised. No allocation per response.
 */
export const fillLightState: (response: unknown, out: LightState) => boolean = shared.fillLightState

/** The fast-path state as a new object, or undefined once a real Response exists (for inspection). */
export function lightState(response: unknown): LightState | undefined {
  const out = {} as LightState
  return fillLightState(response, out) ? out : undefined
}

/** Replace `globalThis.Response` with {@link LightResponse} (idempotent). */
export const installGlobalResponse: () => void = shared.installGlobalResponse
