/**
 * The bodies a LightResponse keeps as they are (the "fast" bodies), what a real Response derives from
 * them (Content-Type, length), and the `body` stream of a fixed one.
 */

export type FastBody = string | ArrayBuffer | ArrayBufferView | Blob | URLSearchParams | ReadableStream | null
/** A fast body whose bytes are known up front. */
export type FixedBody = Exclude<FastBody, ReadableStream | null>

const TEXT_PLAIN = 'text/plain;charset=UTF-8'
const FORM_URLENCODED = 'application/x-www-form-urlencoded;charset=UTF-8'

export function isFastBody(body: unknown): body is FastBody {
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

/** The Content-Type a real Response derives from its body when the headers have none. */
export function defaultContentType(body: FastBody): string | undefined {
  if (typeof body === 'string') return TEXT_PLAIN
  if (body instanceof URLSearchParams) return FORM_URLENCODED
  if (body instanceof Blob) return body.type || undefined
  return undefined
}

/** Byte length of a fixed body, or undefined for streams and null. */
export function lengthOf(body: FastBody): number | undefined {
  if (body === null || body instanceof ReadableStream) return undefined
  if (typeof body === 'string') return Buffer.byteLength(body)
  if (body instanceof Blob) return body.size
  if (body instanceof URLSearchParams) return Buffer.byteLength(body.toString())
  return (body as ArrayBufferView | ArrayBuffer).byteLength
}

const encoder = new TextEncoder()

/** A copy of a fixed body's bytes, as a plain Uint8Array like the platform's chunks. */
async function bytesOf(body: FixedBody): Promise<Uint8Array> {
  if (typeof body === 'string') return encoder.encode(body)
  if (body instanceof URLSearchParams) return encoder.encode(body.toString())
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer())
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0))
  return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer)
}

/**
 * The source behind a fixed body's stream. Its high-water mark is 0, so nothing is produced until
 * someone reads: until then (`touched` false) a Response built from the stream may take the fixed body
 * back instead.
 */
// No `implements UnderlyingSource`: the published declarations must hold under every @types/node, whose
// UnderlyingSource types differ between majors (25 changed `pull`'s controller type).
export class FixedSource {
  touched = false
  constructor(readonly body: FixedBody) {}

  pull(controller: { enqueue(chunk: Uint8Array): void; close(): void }): Promise<void> | void {
    this.touched = true
    return bytesOf(this.body).then((bytes) => {
      if (bytes.byteLength > 0) controller.enqueue(bytes)
      controller.close()
    })
  }

  cancel(): void {
    this.touched = true
  }
}

const NOTHING_BUFFERED = { highWaterMark: 0 }
const sources = new WeakMap<ReadableStream, FixedSource>()

export function fixedBodyStream(source: FixedSource): ReadableStream<Uint8Array> {
  const stream = new ReadableStream<Uint8Array>(source, NOTHING_BUFFERED)
  sources.set(stream, source)
  return stream
}

/** The source of a stream made by {@link fixedBodyStream}, if it is one. */
export function sourceOf(stream: ReadableStream): FixedSource | undefined {
  return sources.get(stream)
}
