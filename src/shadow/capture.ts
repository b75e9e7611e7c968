/**
 * What a shadow run needs from the live request, taken without changing it: a copy of the request
 * body as Express's parsers read it, and Express's answer as it goes out (status and headers as
 * sent, the body as the route wrote it, decoded if an encoder beneath made it gzip or br).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { hasBody } from '../request/body-read.js'
import { bodyConsumed, rebuildBody, type ParsedRequest } from '../request/rebuilt-body.js'

/** Collects bytes up to a bound; past it, only that it went over. */
class Bounded {
  chunks: Buffer[] = []
  size = 0
  over = false
  constructor(readonly limit: number) {}

  add(chunk: unknown, encoding?: unknown): void {
    if (this.over || chunk === undefined || chunk === null || typeof chunk === 'function') return
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : undefined
    if (bytes === undefined) return
    if (this.size + bytes.length > this.limit) {
      this.over = true
      this.chunks = []
      return
    }
    this.size += bytes.length
    this.chunks.push(bytes)
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size)
  }
}

/** The request body for the twin: copied as it is read, or rebuilt if a parser already read it. */
export interface BodyCopy {
  /** The body, or why there is none to give the twin. */
  result(): Buffer | 'request-body-too-large' | 'request-body-unread'
}

const EMPTY: BodyCopy = { result: () => Buffer.alloc(0) }

export function copyRequestBody(req: IncomingMessage, limit: number): BodyCopy | 'request-body-too-large' {
  if (!hasBody(req)) return EMPTY
  const length = Number(req.headers['content-length'])
  if (length > limit) return 'request-body-too-large'
  if (bodyConsumed(req as ParsedRequest)) {
    let rebuilt: Buffer | undefined
    try {
      rebuilt = rebuildBody(req as ParsedRequest)
    } catch {
      rebuilt = undefined
    }
    return {
      result: () =>
        rebuilt === undefined ? 'request-body-unread' : rebuilt.length > limit ? 'request-body-too-large' : rebuilt,
    }
  }
  // Every consumer (a 'data' listener, pipe(), read(), async iteration) gets the body through 'data'
  // events: watching emit() copies it without changing how the stream flows.
  const copy = new Bounded(limit)
  let ended = false
  const emit = req.emit
  const watching = function (this: IncomingMessage, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') copy.add(args[0])
    else if (event === 'end') ended = true
    return emit.call(this, event, ...args)
  } as IncomingMessage['emit']
  req.emit = watching
  return {
    result() {
      if (req.emit === watching) req.emit = emit
      if (copy.over) return 'request-body-too-large'
      return ended ? copy.bytes() : 'request-body-unread'
    },
  }
}

/** Express's answer, captured as it is written. */
export interface ResponseTap {
  body: Bounded
  /** Stops capturing (the original methods stay reachable through the wrappers). */
  stop(): void
}

export function tapResponse(res: ServerResponse, limit: number): ResponseTap {
  const body = new Bounded(limit)
  let on = true
  const write = res.write
  const end = res.end
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    if (on) body.add(args[0], args[1])
    return write.apply(this, args as Parameters<ServerResponse['write']>)
  } as ServerResponse['write']
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (on) body.add(args[0], args[1])
    on = false
    return end.apply(this, args as Parameters<ServerResponse['end']>)
  } as ServerResponse['end']
  return {
    body,
    stop() {
      on = false
    },
  }
}

function joinInto(map: Map<string, string>, name: string, value: string): void {
  // HTTP/2 pseudo-headers (`:status`) are the status line, compared on their own.
  if (name[0] === ':') return
  const previous = map.get(name)
  map.set(name, previous === undefined ? value : `${previous}, ${value}`)
}

/** The headers as they went out: the header block itself when Node keeps it, else `getHeaders()`. */
export function sentHeaders(res: ServerResponse): Map<string, string> {
  const map = new Map<string, string>()
  const block = (res as { _header?: unknown })._header
  if (typeof block === 'string' && block !== '') {
    const lines = block.split('\r\n')
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':')
      if (colon > 0) joinInto(map, lines[i].slice(0, colon).trim().toLowerCase(), lines[i].slice(colon + 1).trim())
    }
    return map
  }
  return headerMap(res.getHeaders())
}

export function headerMap(headers: OutgoingHttpHeaders): Map<string, string> {
  const map = new Map<string, string>()
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) joinInto(map, name.toLowerCase(), String(v))
  }
  return map
}

const gunzip = promisify(zlib.gunzip)
const inflate = promisify(zlib.inflate)
const brotli = promisify(zlib.brotliDecompress)

/**
 * The body as the route meant it: decoded when it is gzip, deflate or br. A capture taken above an
 * encoder (compression() installed before the bridge) is already plain: decoding it fails, and it is
 * kept as it is. Undefined when the decoded body is over the bound.
 */
export async function decoded(body: Buffer, encoding: string | undefined, limit: number): Promise<Buffer | undefined> {
  const coding = encoding?.trim().toLowerCase()
  if (coding === undefined || body.length === 0 || coding === 'identity') return body
  const decode =
    coding === 'gzip' || coding === 'x-gzip'
      ? gunzip
      : coding === 'deflate'
        ? inflate
        : coding === 'br'
          ? brotli
          : undefined
  if (decode === undefined) return body
  try {
    return await decode(body, { maxOutputLength: Math.max(1, limit) })
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? undefined : body
  }
}
