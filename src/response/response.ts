/**
 * A lightweight Response that keeps (status, body, a copy of the init headers) for the bodies the serializer can
 * send without a real Response: string, ArrayBuffer(View), Blob, URLSearchParams, ReadableStream and
 * null. `status`, `ok`, `statusText` and `headers` are served from those fields; any other member
 * materialises a real Response once and delegates to it. The idea comes from @hono/node-server's
 * response cache; streams are kept too so the serializer can flush headers at once.
 */

import { PlatformResponse } from '../core/platform.js'
import { Readable } from 'node:stream'
import { delegateRemaining } from '../core/delegate.js'
import { defineGlobal, processShared, registeredShared } from '../core/process-shared.js'
import type { BodyInit, ResponseType } from '../core/fetch-types.js'
import type { FlatHeaders } from '../core/headers.js'
import { LightHeaders } from '../core/light-headers.js'
import { fixedBodyStream, FixedSource, isFastBody, lengthOf, sourceOf, type FastBody } from './response-body.js'
import { assertBodyAllowed, headersOf, jsonInit, readInit, withBodyType } from './response-init.js'
import { inspectLight } from './response-inspect.js'

export { defaultContentType, type FastBody } from './response-body.js'

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
const registered = registeredShared<Shared>('response@3')

/** The platform's Response, captured before anything replaces the global. */
export const OriginalResponse: typeof Response = registered?.OriginalResponse ?? PlatformResponse

// Filled in by the class's static block: module-internal access to private state for the serializer.
let fastState!: (r: LightResponseImpl, out: LightState) => boolean
let realOf!: (r: LightResponseImpl) => Response
let brand!: (v: object) => boolean

/** What the serializer needs from a LightResponse that has not been materialised. */
export interface LightState {
  status: number
  statusText: string
  body: FastBody
  /** The Headers object if someone asked for `headers`, else undefined (then use `flat`). */
  headers: Headers | undefined
  /** The init headers as copied at construction: shared between responses, never to be modified. */
  flat: FlatHeaders | undefined
  /** Length of the body of the Response this one was built from (`new Response(null, res)`), for HEAD. */
  headLength: number | undefined
  /** That Response's stream body, which nobody else will read: cancelled when a HEAD response is sent. */
  headSource: ReadableStream | undefined
}

class LightResponseImpl {
  #status = 200
  #statusText = ''
  #body: FastBody = null
  #flat: FlatHeaders | undefined
  #headers: Headers | undefined
  #real: Response | undefined
  #headLength: number | undefined
  #headSource: ReadableStream | undefined
  // The `body` stream handed out for a fixed body (or the one this Response was built from) and its
  // source: while nobody reads it, the fixed body is still what gets sent.
  #stream: ReadableStream | undefined
  #source: FixedSource | undefined

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    if (body != null && !isFastBody(body)) {
      // FormData, async iterables…: let the platform handle (and validate) them.
      this.#real = new OriginalResponse(body, init)
      return
    }
    // Init headers of this Headers class: copied as one (checked already), so that reading `headers`
    // later (Hono's context does, for each response it replaces) needs no rebuilding from a list.
    let copied: Headers | undefined
    if (init != null) {
      if (typeof init !== 'object' && typeof init !== 'function')
        throw new TypeError("Failed to construct 'Response': init must be an object")
      // Copied and checked now, as the platform does: changing the init object afterwards changes
      // nothing, and a bad value is the app's TypeError (its onError sees it), not Node's refusal
      // when the answer is written.
      const read = readInit(init)
      if (read.status !== undefined) this.#status = read.status
      if (read.statusText !== undefined) this.#statusText = read.statusText
      this.#flat = read.flat
      copied = read.copied
      if (body === null || body === undefined) {
        // `new Response(null, res)` (Hono's HEAD handling): remember the GET body's length, and its
        // stream so the serializer can cancel it. `instanceof` would also accept a platform Response.
        if (#body in init) {
          const source = init.#body
          if (source instanceof ReadableStream)
            this.#headSource = init.#real === undefined ? source : (init.#real.body ?? undefined)
          else this.#headLength = lengthOf(source)
        } else if (init instanceof OriginalResponse) {
          this.#headSource = (init as Response).body ?? undefined
        }
      }
    }
    if (body != null) {
      assertBodyAllowed(this.#status)
      if (body instanceof ReadableStream) {
        const source = sourceOf(body)
        if (body.locked || source?.touched)
          throw new TypeError('Response body object should not be disturbed or locked')
        if (source !== undefined) {
          // `new Response(res.body, res)` (Hono's c.header() and c.res = … after next()): same stream,
          // and still the fixed body for the serializer.
          this.#stream = body
          this.#source = source
        }
      }
      this.#body = this.#source === undefined ? body : this.#source.body
    }
    if (copied !== undefined) this.#headers = withBodyType(copied, this.#body)
  }

  static {
    realOf = (r) => r.#materialize()
    brand = (v) => #body in v
    // Fills the caller's object: no allocation per response.
    fastState = (r, out) => {
      if (r.#real !== undefined) return false
      // Someone read the stream handed out as `body`: its bytes are gone, as on the platform.
      if (r.#source !== undefined && (r.#source.touched || r.#stream!.locked)) return false
      out.status = r.#status
      out.statusText = r.#statusText
      out.body = r.#body
      out.headers = r.#headers
      out.flat = r.#flat
      out.headLength = r.#headLength
      out.headSource = r.#headSource
      return true
    }
  }

  /** True for real Responses and lightweight ones, so the global can be replaced safely. */
  static [Symbol.hasInstance](this: unknown, value: unknown): boolean {
    // Subclasses (`class X extends Response`) keep the ordinary prototype-chain check.
    if (this !== LightResponseImpl) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (#body in value || value instanceof OriginalResponse)
  }

  static json(data: unknown, init?: ResponseInit): Response {
    return new LightResponseImpl(...jsonInit(data, init)) as unknown as Response
  }

  static redirect(url: string | URL, status = 302): Response {
    // One of these holding the platform's own (rare): its headers are immutable, a TypeError on set.
    const response = new LightResponseImpl(null)
    response.#real = OriginalResponse.redirect(url, status as Parameters<typeof OriginalResponse.redirect>[1])
    return response as unknown as Response
  }

  static error(): Response {
    return OriginalResponse.error()
  }

  #materialize(): Response {
    if (this.#real === undefined) {
      const init = { status: this.#status, statusText: this.#statusText, headers: this.headers }
      if (this.#source?.touched) {
        // The stream handed out was read: the real Response's body is used up too.
        this.#real = new OriginalResponse(new ReadableStream(), init)
        this.#real.body!.cancel().catch(() => {})
      } else {
        this.#real = new OriginalResponse((this.#stream ?? this.#body) as BodyInit | null, init)
      }
    }
    return this.#real
  }

  /** A clone that keeps the fixed body (which nothing can change) instead of teeing a stream. */
  #copy(): LightResponseImpl {
    const copy = new LightResponseImpl(null)
    copy.#status = this.#status
    copy.#statusText = this.#statusText
    copy.#body = this.#body
    copy.#flat = this.#flat
    if (this.#headers !== undefined) copy.#headers = new LightHeaders(this.#headers)
    copy.#headLength = this.#headLength
    return copy
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
      this.#headers = this.#real ? this.#real.headers : headersOf(this.#flat, this.#body)
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
    if (this.#real) return this.#real.bodyUsed
    if (this.#source !== undefined) return this.#source.touched
    return this.#body instanceof ReadableStream && Readable.isDisturbed(this.#body as never)
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#real) return this.#real.body
    const body = this.#body
    if (body === null || body instanceof ReadableStream) return body
    // A stream that produces the fixed body only when read; the fixed body stays for the serializer.
    if (this.#stream === undefined) this.#stream = fixedBodyStream((this.#source = new FixedSource(body)))
    return this.#stream
  }
  clone(): Response {
    if (this.#real === undefined && !(this.#body instanceof ReadableStream) && !this.#source?.touched) {
      return this.#copy() as unknown as Response
    }
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
  /** What console.log shows: the fast-path state, without building a real Response. */
  [Symbol.for('nodejs.util.inspect.custom')](
    depth: number,
    options: object,
    inspect: (value: unknown, options?: object) => string,
  ): string {
    if (this.#real) return inspect(this.#real, options)
    return inspectLight(this as unknown as Response, this.#body, depth, options, inspect)
  }
}

// Members the platform may add later (e.g. `bytes()`) delegate to the real Response.
delegateRemaining(LightResponseImpl, OriginalResponse, realOf)
Object.defineProperty(LightResponseImpl, 'name', { value: 'LightResponse' })
Object.defineProperty(LightResponseImpl, 'length', { value: 0 }) // the platform's: body and init are optional
Object.defineProperty(LightResponseImpl.json, 'length', { value: 1 }) // the platform's: init is optional
Object.setPrototypeOf(LightResponseImpl.prototype, OriginalResponse.prototype)
Object.setPrototypeOf(LightResponseImpl, OriginalResponse)

function localFillLightState(response: unknown, out: LightState): boolean {
  return (
    typeof response === 'object' &&
    response !== null &&
    brand(response) &&
    fastState(response as LightResponseImpl, out)
  )
}

let installed = false

function localInstall(): void {
  if (installed) return
  installed = true
  if ((globalThis.Response as unknown) !== LightResponseImpl) defineGlobal('Response', LightResponseImpl)
}

const shared = processShared<Shared>('response@3', {
  OriginalResponse,
  LightResponse: LightResponseImpl,
  fillLightState: localFillLightState,
  installGlobalResponse: localInstall,
})

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
