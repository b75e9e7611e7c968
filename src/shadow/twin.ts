/**
 * One run of the Hono twin on a copy of a request, off the response path: its answer captured (never
 * sent), bounded in time and size. A twin that throws, hangs or returns nothing gives an error, never
 * an exception out of here.
 */
import type { IncomingMessage } from 'node:http'
import { PlatformRequest } from '../core/platform.js'
import { lightState } from '../response/response.js'
import type { ExecutionContextLike } from '../bridge/options.js'
import { decoded } from './capture.js'
import type { Captured } from './compare.js'

/** The request as the bridge saw it, kept for the twin. */
export interface TwinRequest {
  url: string
  method: string
  headers: Array<[string, string]>
  body: Buffer | undefined
  req: IncomingMessage
  /** Headers middleware before the bridge had set on `res`: a Hono answer would have gone out with them. */
  preset: Map<string, string>
}

export type TwinOutcome =
  | { kind: 'answer'; captured: Captured; duration: number }
  | { kind: 'error'; error: string; duration: number }
  | { kind: 'too-large'; duration: number }

type Fetch = (request: Request, env: unknown, ctx: ExecutionContextLike) => unknown

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
])

function reportBackgroundError(err: unknown): void {
  process.emitWarning(
    `express-fetch-bridge: a shadow run's waitUntil() task failed: ${err instanceof Error ? err.stack : String(err)}`,
  )
}

const shadowContext: ExecutionContextLike = Object.freeze({
  waitUntil(promise: Promise<unknown>) {
    Promise.resolve(promise).catch(reportBackgroundError)
  },
  passThroughOnException() {},
  props: Object.freeze({}),
}) as ExecutionContextLike

const TIMEOUT = Symbol('express-fetch-bridge/shadow-timeout')

function requestHeaders(raw: Array<[string, string]>): Headers {
  const headers = new Headers()
  // HTTP/2 pseudo-headers (`:path`) are not headers of a Request.
  for (const [name, value] of raw)
    if (name[0] !== ':' && !HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, value)
  return headers
}

/** The twin's headers as they would have gone out: over those middleware had already set on `res`. */
function answerHeaders(response: Response, preset: Map<string, string>): Map<string, string> {
  const map = new Map(preset)
  const own = new Map<string, string>()
  for (const [name, value] of response.headers) {
    const previous = own.get(name)
    own.set(name, previous === undefined ? value : `${previous}, ${value}`)
  }
  for (const [name, value] of own) {
    const before = preset.get(name)
    map.set(name, before !== undefined && (name === 'set-cookie' || name === 'vary') ? `${before}, ${value}` : value)
  }
  return map
}

/** A LightResponse's fixed body as bytes, without making it a stream; undefined for any other body. */
function fixedBytes(response: Response): Buffer | undefined {
  const body = lightState(response)?.body
  if (body === null) return Buffer.alloc(0)
  if (typeof body === 'string') return Buffer.from(body)
  if (body instanceof ArrayBuffer) return Buffer.from(body)
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  return undefined
}

async function readBody(response: Response, limit: number, stop: Promise<never>): Promise<Buffer | undefined> {
  const fixed = fixedBytes(response)
  if (fixed !== undefined) return fixed.length > limit ? undefined : fixed
  const stream = response.body
  if (stream === null) return Buffer.alloc(0)
  const reader = stream.getReader()
  const chunks: Buffer[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), stop])
      if (done) return Buffer.concat(chunks, size)
      size += value.byteLength
      if (size > limit) return undefined
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength))
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}

function isResponse(value: unknown): value is Response {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Response).status === 'number' &&
    typeof (value as Response).headers === 'object'
  )
}

export async function runTwin(
  fetch: Fetch,
  input: TwinRequest,
  env: Record<string, unknown>,
  timeoutMs: number,
  limit: number,
): Promise<TwinOutcome> {
  const start = performance.now()
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(TIMEOUT), timeoutMs)
  })
  stop.catch(() => {})
  const elapsed = () => performance.now() - start
  try {
    const request = new PlatformRequest(input.url, {
      method: input.method,
      headers: requestHeaders(input.headers),
      // null, not undefined: the init's optional members take no undefined under exactOptionalPropertyTypes.
      body:
        input.body === undefined || input.body.length === 0 ? null : (input.body as unknown as Uint8Array<ArrayBuffer>),
      signal: controller.signal,
    })
    const result = await Promise.race([Promise.resolve().then(() => fetch(request, env, shadowContext)), stop])
    if (!isResponse(result)) return { kind: 'error', error: 'the Hono route returned no Response', duration: elapsed() }
    const raw = await readBody(result, limit, stop)
    if (raw === undefined) return { kind: 'too-large', duration: elapsed() }
    const headers = answerHeaders(result, input.preset)
    const body = await decoded(raw, result.headers.get('content-encoding') ?? undefined, limit)
    if (body === undefined) return { kind: 'too-large', duration: elapsed() }
    return { kind: 'answer', captured: { status: result.status, headers, body }, duration: elapsed() }
  } catch (err) {
    if (err === TIMEOUT) {
      controller.abort()
      return { kind: 'error', error: `timeout: no answer within ${timeoutMs} ms`, duration: elapsed() }
    }
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    return { kind: 'error', error: `threw ${message}`, duration: elapsed() }
  } finally {
    clearTimeout(timer)
  }
}
