/**
 * The header fields HTTP/2 forbids (RFC 9113 §8.2.2): they describe one HTTP/1.1 connection, and an
 * HTTP/2 peer treats a message carrying them as malformed (Node's http2 throws before sending). Apps
 * and middleware written for HTTP/1.1 set them (Hono's `streamSSE` sets `Transfer-Encoding: chunked`,
 * some middleware `Connection: close`): on HTTP/2 they are dropped, as an HTTP/1.1 → HTTP/2 proxy does.
 */

const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'])

/** Whether a field (name in lower case) must not be sent on HTTP/2; `TE` only with another value than `trailers`. */
export function isConnectionSpecific(lower: string, value: unknown): boolean {
  if (CONNECTION_SPECIFIC.has(lower)) return true
  return lower === 'te' && String(value).trim().toLowerCase() !== 'trailers'
}

/** The field names a `Connection` value lists (`Connection: close, x-hop`): connection-specific too. */
export function connectionTokens(value: unknown): string[] {
  const list = Array.isArray(value) ? value.join(',') : String(value)
  return list
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '')
}
