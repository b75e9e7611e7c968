/**
 * Reading ahead what a stream body already holds, without waiting for its producer: a stream that is
 * complete by then (a platform Response's fixed body, chunks enqueued in `start()`, a foreign
 * Response's buffered body) is sent as a fixed body with an exact Content-Length, as @hono/node-server
 * does. A stream that is still producing loses a few microtasks at most: its headers still go out at
 * once (the #244 regression held them back until the first chunk).
 */

import type { ReadableStreamReadResult } from 'node:stream/web'
type Reader = ReadableStreamDefaultReader<Uint8Array>
type ReadResult = ReadableStreamReadResult<Uint8Array>

/** Beyond this much (and one chunk more), a stream that is still going goes out chunked rather than buffered. */
const READ_AHEAD_LIMIT = 1 << 20

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

export async function readAhead(reader: Reader): Promise<ReadAhead> {
  const out: ReadAhead = { chunks: [], total: 0, done: false, pending: undefined }
  // A flag set by then() rather than Promise.race: fewer allocations per chunk, and no extra ticks
  // for a promise from another realm (a vm context).
  let result: ReadResult | undefined
  let failed = false
  const onResult = (r: ReadResult) => (result = r)
  const onError = () => (failed = true)
  // Once past the limit, one more read: a fixed body of any size is one chunk and its end (a platform
  // `new Response(tenMiBString)`), and it must still go out with an exact Content-Length.
  let last = false
  for (;;) {
    const read = reader.read()
    result = undefined
    read.then(onResult, onError)
    for (let i = 0; i < SLACK && result === undefined && !failed; i++) await null
    const settled = result as ReadResult | undefined
    // Not ready (or failed: the pump awaits it again and rethrows).
    if (settled === undefined) {
      out.pending = read
      return out
    }
    if (settled.done) {
      out.done = true
      return out
    }
    const value = settled.value
    // Anything but bytes is left to the pump, which writes what Node accepts and fails the rest.
    if (!ArrayBuffer.isView(value)) {
      out.pending = read
      return out
    }
    if (value.byteLength === 0) continue
    out.chunks.push(value as Uint8Array)
    out.total += value.byteLength
    if (last) return out
    last = out.total > READ_AHEAD_LIMIT
  }
}
