import type http from 'node:http'

/**
 * Graceful shutdown of one worker's server, without the keep-alive race.
 *
 * The race: a server that closes an idle keep-alive connection can do so just as the client writes
 * its next request on it; that request then fails (ECONNRESET / "socket hang up") though the server
 * never refused it. Node ≥ 19's `server.close()` does exactly that to every idle connection at once.
 * So here, once draining:
 * - the server stops accepting (the cluster primary hands new connections to the other workers);
 * - every response not yet started, and every request still arriving on an open connection, is
 *   answered with `Connection: close`: the client knows not to reuse that socket;
 * - idle connections are not cut: they end when the client closes them or at the server's
 *   `keepAliveTimeout`, the very timeout it announced (`Keep-Alive: timeout=5`) and that Node's
 *   agent and undici honour by retiring the socket a second earlier: the same rule as any other
 *   moment of the server's life, so shutting down adds no new race;
 * - after `deadlineMs` whatever is left is closed (a client that never honours the timeout).
 * The process exits once the server has closed and `cleanup` (Redis clients) has run.
 */
export function gracefulShutdown(
  server: http.Server,
  options: { cleanup: () => Promise<void>; beforeClose?: () => void; deadlineMs?: number },
): () => Promise<void> {
  const open = new Set<http.ServerResponse>()
  let draining: Promise<void> | undefined

  // First listener, before Express, the bridge and socket.io's: headers can still be set here.
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('x-worker-pid', String(process.pid))
    if (draining) res.setHeader('connection', 'close')
    open.add(res)
    res.once('close', () => open.delete(res))
  })
  // Called by server.close() (Node ≥ 19): keep idle sockets to their keep-alive timeout instead.
  server.closeIdleConnections = () => {}

  return () =>
    (draining ??= new Promise<void>((resolve) => {
      for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close')
      const deadline = setTimeout(() => server.closeAllConnections(), options.deadlineMs ?? 10_000)
      // attachWebSockets wraps close(): the Hono WebSockets get 1001 and their clients reconnect.
      server.close(() => {
        clearTimeout(deadline)
        options.cleanup().then(resolve, (err: unknown) => {
          console.error(`worker ${process.pid}: cleanup failed`, err)
          resolve()
        })
      })
      options.beforeClose?.()
    }))
}
