import type { FastBody } from './response-body.js'

/**
 * The debug view of a LightResponse that has no real Response behind it: the members a real one shows,
 * with the body described by kind and size (inspecting must neither build a Response nor read a stream).
 */
export function inspectLight(
  response: Response,
  body: FastBody,
  depth: number,
  options: object,
  inspect: (value: unknown, options?: object) => string,
): string {
  if (depth < 0) return '[Response (lightweight)]'
  const shown = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    body: new BodyKind(body),
    bodyUsed: response.bodyUsed,
    ok: response.ok,
    redirected: false,
    type: 'default',
    url: '',
  }
  return `Response (lightweight) ${inspect(shown, { ...options, depth: depth == null ? null : depth - 1 })}`
}

class BodyKind {
  constructor(readonly body: FastBody) {}
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const body = this.body
    if (body === null) return 'null'
    if (body instanceof ReadableStream) return `ReadableStream { locked: ${body.locked} }`
    if (typeof body === 'string') return `[string: ${Buffer.byteLength(body)} bytes]`
    if (body instanceof Blob) return `[Blob: ${body.size} bytes${body.type ? `, ${body.type}` : ''}]`
    if (body instanceof URLSearchParams) return `[URLSearchParams: ${Buffer.byteLength(body.toString())} bytes]`
    return `[${body.constructor.name}: ${body.byteLength} bytes]`
  }
}
