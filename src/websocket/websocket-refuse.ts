/**
 * Refusing an upgrade: an HTTP answer written raw to the socket (there is no ServerResponse for an
 * upgrade), then the socket closed. The body is dropped; status and headers (a 401's
 * WWW-Authenticate, a Set-Cookie) are what a WebSocket client can see.
 */

import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { flattenHeaders } from '../core/light-headers.js'

// Framing and handshake headers are ours to write, never the app's.
const SKIPPED = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'sec-websocket-accept',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
])

function noop(): void {}

/** The app's headers as `name: value` lines, minus the ones the handshake or the framing own. */
export function headerLines(headers: Headers | undefined): string[] {
  const lines: string[] = []
  if (headers === undefined) return lines
  const flat: string[] = []
  flattenHeaders(headers, flat)
  for (let i = 0; i < flat.length; i += 2) {
    if (!SKIPPED.has(flat[i].toLowerCase())) lines.push(`${flat[i]}: ${flat[i + 1]}`)
  }
  return lines
}

export function refuseUpgrade(socket: Duplex, status: number, headers?: Headers): void {
  if (socket.destroyed) return
  // A client that resets the connection while we write must not become an uncaught 'error'.
  if (socket.listenerCount('error') === 0) socket.on('error', noop)
  const lines = headerLines(headers)
  lines.push('Connection: close', 'Content-Length: 0')
  socket.once('finish', () => socket.destroy())
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n`)
}

/** Drop the body of a refusing Response without reading it. */
export function discardBody(response: Response): void {
  try {
    const body = response.body
    if (body !== null && !body.locked) body.cancel().catch(noop)
  } catch {
    // a body that cannot even be looked at has nothing to release
  }
}
