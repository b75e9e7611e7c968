import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  TimeoutError,
} from 'redis'

export type Redis = ReturnType<typeof createRequestClient>

/**
 * A client for the request path: while Redis is down every command fails at once (no offline queue)
 * or within `commandTimeoutMs`, so a request gets a 503 instead of hanging until Redis is back; the
 * client keeps reconnecting in the background (every 50 ms, backing off to 500 ms) for ever.
 */
export function createRequestClient(url: string, commandTimeoutMs = 1000) {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 500) },
  })
  return quietErrors(client)
}

/**
 * A subscriber: it must survive an outage too, and node-redis subscribes again by itself on reconnect,
 * so it keeps the offline queue (its only commands are the (re)subscriptions).
 */
export function createSubscriber(client: Redis): Redis {
  return quietErrors(client.duplicate({ disableOfflineQueue: false, commandOptions: {} }))
}

/** node-redis emits 'error' on every failed reconnect: without a listener the process would crash. */
function quietErrors<T extends { on(event: string, listener: (err: Error) => void): unknown }>(client: T): T {
  let down = false
  client.on('error', (err: Error) => {
    if (!down) console.error(`worker ${process.pid}: redis unavailable (${err.message}); reconnecting`)
    down = true
  })
  client.on('ready', () => {
    if (down) console.error(`worker ${process.pid}: redis back`)
    down = false
  })
  return client
}

/** The errors node-redis gives a command while the server cannot be reached: answer them with a 503. */
export function isRedisUnavailable(err: unknown): boolean {
  return (
    err instanceof ClientOfflineError ||
    err instanceof ClientClosedError ||
    err instanceof SocketClosedUnexpectedlyError ||
    err instanceof ConnectionTimeoutError ||
    err instanceof ReconnectStrategyError ||
    err instanceof TimeoutError
  )
}

/**
 * @socket.io/redis-adapter calls `pubClient.publish()` without handling its promise: with the offline
 * queue disabled, an `io.emit()` during an outage would be an unhandled rejection (a crash on Node ≥ 15).
 * This view of the client drops such publishes with a log line (socket.io broadcasts are at most once
 * anyway). Methods are bound to the client: node-redis uses private fields a Proxy cannot reach.
 */
export function publishQuietly(client: Redis): Redis {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      if (key !== 'publish') return value.bind(target)
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<number>).catch((err: Error) => {
          console.error(`worker ${process.pid}: socket.io broadcast lost (${err.message})`)
          return 0
        })
    },
  })
}
