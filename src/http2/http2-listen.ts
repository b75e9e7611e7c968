/**
 * `bridge.listen({ http2 })`: an HTTP/2 server for the bridge, h2 over TLS (with HTTP/1.1 on the same
 * port, so WebSockets and old clients keep working) or cleartext h2c, whose `close()` shuts down
 * gracefully: node:http2's own stops accepting connections but leaves open sessions serving new
 * streams, so every session is sent GOAWAY and closes once its streams are done.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Server,
  type SecureServerOptions,
  type ServerHttp2Session,
} from 'node:http2'
import type { ListenOptions } from 'node:net'

/** The options of `bridge.listen({ http2 })`: where to listen, and which HTTP/2. */
export interface Http2ListenOptions extends ListenOptions {
  /**
   * `true`: cleartext HTTP/2 (h2c, prior knowledge: `http2.createServer`), for a proxy or load balancer
   * that speaks h2c to Node. An object: the TLS options of `http2.createSecureServer` (at least `key`
   * and `cert`), with `allowHTTP1: true` unless given, so HTTP/1.1 clients and WebSocket upgrades are
   * served on the same port (ALPN picks the protocol).
   * @example
   * fetchBridge(hono, { fallback: app }).listen({ port: 8443, http2: { key, cert } })
   */
  http2: true | SecureServerOptions
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** Whether `listen()` got an {@link Http2ListenOptions}. */
export function isHttp2Listen(args: unknown[]): boolean {
  const first = args[0]
  return typeof first === 'object' && first !== null && (first as { http2?: unknown }).http2 !== undefined
}

export function listenHttp2(handler: Handler, args: unknown[]): Http2Server | Http2SecureServer {
  const { http2: kind, ...where } = args[0] as Http2ListenOptions
  if (kind !== true && (typeof kind !== 'object' || kind === null)) {
    throw new TypeError(
      'listen: http2 must be true (h2c) or the TLS options of http2.createSecureServer ({ key, cert })',
    )
  }
  const listener = handler as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void
  const server: Http2Server | Http2SecureServer =
    kind === true ? createServer(listener) : createSecureServer({ allowHTTP1: true, ...kind }, listener)
  closeGracefully(server)
  return server.listen(where, args[1] as (() => void) | undefined)
}

function closeGracefully(server: Http2Server | Http2SecureServer): void {
  const sessions = new Set<ServerHttp2Session>()
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session)
    session.once('close', () => sessions.delete(session))
  })
  const close = server.close
  server.close = function (this: typeof server, callback?: (err?: Error) => void) {
    close.call(this, callback)
    // GOAWAY: no new streams; those in flight finish, then the session closes.
    for (const session of sessions) session.close()
    return this
  } as typeof server.close
}
