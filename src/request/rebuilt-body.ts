/** Bodies an Express parser (express.json(), urlencoded(), text(), raw()) already read, rebuilt as bytes. */

import type { IncomingMessage } from 'node:http'

/** What Express body parsers leave on the request. */
export interface ParsedRequest extends IncomingMessage {
  /** Set by body-parser once it has read the stream. */
  _body?: boolean
  body?: unknown
  /** The raw bytes, when a `verify` callback or custom middleware kept them. */
  rawBody?: unknown
}

/** True when earlier middleware (express.json() and co., multer…) has already read the body stream. */
export function bodyConsumed(req: ParsedRequest): boolean {
  return req.readableEnded || req._body === true
}

function contentType(req: IncomingMessage): { type: string; charset: string | undefined } {
  const header = req.headers['content-type'] ?? ''
  const semi = header.indexOf(';')
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
  const charset = semi === -1 ? undefined : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header)?.[1]?.toLowerCase()
  return { type, charset }
}

function appendForm(params: URLSearchParams, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    // Repeated keys round-trip through both querystring and qs; a lone item needs `[]` (qs reads
    // `a[]=x` as ['x'], `a=x` as 'x'), and an array holding objects an index on every item, so qs
    // puts each back in its place (querystring gives neither).
    const indexed = value.some((item) => item !== null && typeof item === 'object')
    const plain = value.length === 1 ? `${key}[]` : key
    for (let i = 0; i < value.length; i++) appendForm(params, indexed ? `${key}[${i}]` : plain, value[i])
  } else if (value !== null && typeof value === 'object') {
    for (const k of Object.keys(value)) appendForm(params, `${key}[${k}]`, (value as Record<string, unknown>)[k])
  } else {
    params.append(key, value === null || value === undefined ? '' : String(value))
  }
}

/**
 * Rebuild a body that an Express parser already read: `req.rawBody` when it is a Buffer, else `req.body`
 * serialised back according to the content type. Throws a TypeError for what cannot be rebuilt.
 */
export function rebuildBody(req: ParsedRequest): Buffer {
  const raw = req.rawBody
  if (raw instanceof Uint8Array)
    return Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const body = req.body
  if (Buffer.isBuffer(body)) return body
  const { type, charset } = contentType(req)
  if (typeof body === 'string') {
    // express.text() decoded with the declared charset: encode back to the bytes the client sent.
    const encoding = charset === 'iso-8859-1' ? 'latin1' : charset
    return Buffer.from(body, encoding !== undefined && Buffer.isEncoding(encoding) ? encoding : 'utf8')
  }
  if (body !== undefined && type !== 'multipart/form-data') {
    if (type === 'application/x-www-form-urlencoded') {
      if (body !== null && typeof body === 'object') {
        const params = new URLSearchParams()
        for (const key of Object.keys(body)) appendForm(params, key, (body as Record<string, unknown>)[key])
        return Buffer.from(params.toString())
      }
    } else {
      const json = JSON.stringify(body)
      if (json !== undefined) return Buffer.from(json)
    }
  }
  throw new TypeError(
    `express-fetch-bridge: the request body (${type || 'no content type'}) was already consumed by earlier ` +
      'middleware and cannot be rebuilt. Mount the bridge before that middleware (e.g. multer), or keep the ' +
      'raw bytes in req.rawBody (express.json({ verify: (req, res, buf) => { req.rawBody = buf } })).',
  )
}

/** Headers describing a rebuilt body: its length, and no Content-Encoding once the parser inflated it. */
export function describeRebuilt(headers: Headers, body: Buffer): void {
  const declared = headers.get('content-length')
  if (declared !== String(body.byteLength)) {
    headers.delete('content-encoding')
    headers.set('content-length', String(body.byteLength))
  }
  headers.delete('transfer-encoding')
}
