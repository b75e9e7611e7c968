/**
 * Reading ahead what a stream body already holds, without waiting for its producer: a stream that is
 * complete by then (a platform Response's fixed body, chunks enqueued in `start()`, a foreign
 * Response's buffered body) is sent as a fixed body with an exact Content-Length, as @hono/node-server
 * does. A stream that is still producing loses a few microtasks at most: its headers still go out at
 * once (the #244 regression held them back until the first chunk).
 */

type Reader = ReadableStreamDefaultReader<Uint8Array>
type ReadResult = ReadableStreamReadResult<Uint8Array>

/** Beyond this much, a stream that is still going goes out chunked rather than buffered. */
export const READ_AHEAD_LIMIT = 1 << 20

export interface ReadAhead {
  /** The chunks read so far, in order. */
  chunks: Uint8Array[]
  total: number
  /** True when the stream ended: `chunks` is the whole body. */
  done: boolean
  /** A read still in flight when the stream had nothing ready (undefined when done or over the limit). */
  pending: Promise<ReadResult> | undefined
}

/** Microtasks a producer gets to settle a read (a platform body's pull settles in one or two). */
const SLACK = 4

/** The read's result if it settles within the slack; undefined if not (or if it failed: the pump rethrows). */
async function settled(read: Promise<ReadResult>): Promise<ReadResult | undefined> {
  let result: ReadResult | undefined
  let failed = false
  // A flag rather than Promise.race: no extra ticks for a promise from another realm (a vm context).
  read.then(
    (r) => (result = r),
    () => (failed = true),
  )
  for (let i = 0; i < SLACK && result === undefined && !failed; i++) await null
  return result
}

export async function readAhead(reader: Reader): Promise<ReadAhead> {
  const out: ReadAhead = { chunks: [], total: 0, done: false, pending: undefined }
  while (out.total <= READ_AHEAD_LIMIT) {
    const read = reader.read()
    const result = await settled(read)
    if (result === undefined) {
      out.pending = read
      return out
    }
    if (result.done) {
      out.done = true
      return out
    }
    const value = result.value
    // Anything but bytes is left to the pump, which writes what Node accepts and fails the rest.
    if (!ArrayBuffer.isView(value)) {
      out.pending = read
      return out
    }
    if (value.byteLength === 0) continue
    out.chunks.push(value)
    out.total += value.byteLength
  }
  return out
}

/** The chunks as one Buffer (no copy for a single chunk). */
export function joined(chunks: Uint8Array[], total: number): Buffer {
  if (chunks.length === 1) return Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength)
  return Buffer.concat(chunks, total)
}
