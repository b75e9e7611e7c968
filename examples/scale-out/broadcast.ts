import type http from 'node:http'
import { createAdapter } from '@socket.io/redis-adapter'
import { Server as SocketIOServer } from 'socket.io'
import { createSubscriber, publishQuietly, type Redis } from './redis.js'

/** What every WebSocket client gets, on whichever worker it is connected to. */
export interface BroadcastMessage {
  from: string
  text: string
  /** The worker that published it. */
  pid: number
}

export interface Room {
  /** The Hono WebSockets connected to this worker. */
  members: Set<{ send(text: string): void }>
  /** Deliver to every worker's members through Redis pub/sub (rejects while Redis is down). */
  publish(message: Omit<BroadcastMessage, 'pid'>): Promise<void>
  close(): Promise<void>
}

/**
 * One Redis channel, one subscriber connection per worker: a message published on any worker is sent
 * to the Hono WebSockets of all of them. Pub/sub is at most once: a client that is reconnecting (its
 * worker restarting) misses what is published meanwhile.
 */
export async function createRoom(client: Redis, channel: string): Promise<Room> {
  const members = new Set<{ send(text: string): void }>()
  const subscriber = createSubscriber(client)
  await subscriber.connect()
  await subscriber.subscribe(channel, (text) => {
    for (const member of members) member.send(text)
  })
  return {
    members,
    async publish(message) {
      await client.publish(channel, JSON.stringify({ ...message, pid: process.pid } satisfies BroadcastMessage))
    },
    async close() {
      subscriber.destroy()
    },
  }
}

/**
 * The legacy clients' side: socket.io with @socket.io/redis-adapter, so `io.emit()` on one worker
 * reaches sockets connected to the others. `transports: ['websocket']`: HTTP long-polling would need
 * every request of a session to reach the same worker (sticky sessions), which node:cluster's
 * round-robin does not do; a WebSocket is one connection, so it needs none.
 */
export async function createSocketIo(server: http.Server, client: Redis): Promise<{ io: SocketIOServer; disconnect(): void; close(): Promise<void> }> {
  const subscriber = createSubscriber(client)
  await subscriber.connect()
  const io = new SocketIOServer(server, { transports: ['websocket'] })
  io.adapter(createAdapter(publishQuietly(client), subscriber))
  io.on('connection', (socket) => socket.emit('hello', { pid: process.pid }))
  return {
    io,
    // Closes this worker's transports: clients see 'transport close' and reconnect by themselves (a
    // server-side disconnect() would tell them not to), reaching another worker.
    disconnect: () => io.engine.close(),
    async close() {
      subscriber.destroy()
    },
  }
}
