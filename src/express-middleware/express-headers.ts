/**
 * Hosts other than the bridge (@hono/node-server) write the Hono response with
 * `res.writeHead(status, headers)`, which replaces what middleware set on `res` under the same name:
 * apply the bridge's merge rules (Set-Cookie appended, Vary merged, framing dropped) to the Hono
 * response first. The bridge's own serializer does this when it writes.
 */

import type { ServerResponse } from 'node:http'
import type { FlatHeaders } from '../core/headers.js'
import { flattenHeaders } from '../core/light-headers.js'
import { mergeWithOutgoing } from '../response/outgoing-headers.js'
import { OriginalResponse } from '../response/response.js'
import { readAhead } from '../response/read-ahead.js'

interface HonoContextLike {
  res: Response
}

export function mergeOutgoingInto(c: HonoContextLike, res: ServerResponse): void {
  if (res.headersSent) return
  if (
    !res.hasHeader('set-cookie') &&
    !res.hasHeader('vary') &&
    !res.hasHeader('content-length') &&
    !res.hasHeader('transfer-encoding')
  )
    return
  const response = c.res
  const flat: FlatHeaders = []
  flattenHeaders(response.headers, flat)
  const before = flat.slice()
  mergeWithOutgoing(res, flat)
  if (sameList(before, flat)) return
  const headers = response.headers
  try {
    // Replace the merged names in place (a Hono response's headers are mutable).
    for (let i = 0; i < flat.length; i += 2) headers.delete(flat[i])
    for (let i = 0; i < flat.length; i += 2) headers.append(flat[i], flat[i + 1])
  } catch {
    // Immutable headers (a fetch() response): a copy with the merged list. Clearing c.res first keeps
    // Hono from copying the old headers back over the new ones.
    const copy = new OriginalResponse(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: pairs(flat),
    })
    ;(c as { res: Response | undefined }).res = undefined
    c.res = copy
  }
}

const LENGTH_VISIBLE = Symbol('express-fetch-bridge/length-visible')

/**
 * @hono/node-server gives a fixed body its length through Node's internal `_contentLength`, not as a
 * header, so middleware that decides in `writeHead` (compression's threshold, through on-headers) or
 * logs the header after (morgan) sees none. Wrapping `res.writeHead` outermost, after the chain ran,
 * turns that length into the Content-Length header they look for, as the bridge's serializer sends it.
 */
export function lengthVisibleToMiddleware(res: ServerResponse): void {
  const r = res as ServerResponse & { [LENGTH_VISIBLE]?: true; _contentLength?: number | null }
  if (r[LENGTH_VISIBLE] || res.headersSent) return
  r[LENGTH_VISIBLE] = true
  const inner = res.writeHead
  res.writeHead = function writeHead(this: typeof r, ...args: Parameters<ServerResponse['writeHead']>) {
    const length = this._contentLength
    if (
      typeof length === 'number' &&
      !this.headersSent &&
      !this.hasHeader('content-length') &&
      !this.hasHeader('transfer-encoding')
    ) {
      this.setHeader('Content-Length', length)
    }
    return inner.apply(this, args)
  } as ServerResponse['writeHead']
}

/**
 * A HEAD on a host other than the bridge: Hono answers it with `new Response(null, getResponse)`, and
 * @hono/node-server then sends no Content-Length, where Express sends the GET body's (`res.send()`),
 * which middleware deciding on it (compression) and the client see. When the GET body is complete at
 * hand (read ahead from a clone: a fixed body, never a stream still producing), its length becomes the
 * header. The bridge's serializer keeps that length itself.
 */
export async function headLengthAsHeader(c: HonoContextLike): Promise<void> {
  const response = c.res
  const headers = response.headers
  if (response.body === null || headers.has('content-length') || headers.has('transfer-encoding')) return
  const reader = response.clone().body!.getReader() as ReadableStreamDefaultReader<Uint8Array>
  const ahead = await readAhead(reader)
  reader.cancel().catch(() => {})
  if (!ahead.done) return
  try {
    // Read again: cloning may have given the response other headers (@hono/node-server's Response).
    response.headers.set('content-length', String(ahead.total))
  } catch {
    // Immutable headers (a fetch() response): it goes out as the host sends it.
  }
}

function sameList(a: FlatHeaders, b: FlatHeaders): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function pairs(flat: FlatHeaders): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]])
  return out
}
