import { io as connectSocketIo, type Socket } from 'socket.io-client'
import WebSocket from 'ws'
import { eventually } from './redis.js'

/** A client that records every message, and reconnects (as real clients do) when its server goes away. */
export interface Client<M> {
  /** pid of the worker it is connected to now (from the server's hello). */
  pid(): number | undefined
  messages: M[]
  /** Connections made (1 + reconnections). */
  connects(): number
  /** Resolves with the first message (from now on, or already received) that matches. */
  next(match: (message: M) => boolean, ms?: number): Promise<M>
  send(text: string): void
  close(): void
}

function recorder<M>(): Pick<Client<M>, 'messages' | 'next'> {
  const messages: M[] = []
  return {
    messages,
    next: (match, ms = 5000) => eventually(() => messages.find(match), ms, 'a matching message'),
  }
}

export type WsMessage = { hello?: string; pid: number; from?: string; text?: string }

/** The Hono `upgradeWebSocket` route, with the session cookie; reconnects 50 ms after a close. */
export function openHonoSocket(base: string, cookie: string): Promise<Client<WsMessage>> {
  const { messages, next } = recorder<WsMessage>()
  let pid: number | undefined
  let connects = 0
  let closed = false
  let ws: WebSocket
  return new Promise((resolve, reject) => {
    const connect = () => {
      ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/ws', { headers: { cookie } })
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as WsMessage
        messages.push(message)
        if (message.hello === undefined) return
        pid = message.pid
        if (++connects === 1) resolve(client)
      })
      ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
      ws.on('error', () => {})
      ws.on('close', () => {
        pid = undefined
        if (!closed) setTimeout(connect, 50)
      })
    }
    const client: Client<WsMessage> = {
      pid: () => pid,
      messages,
      connects: () => connects,
      next,
      send: (text) => ws.send(text),
      close: () => {
        closed = true
        ws.close()
      },
    }
    connect()
  })
}

export type IoMessage = { from: string; text: string; pid: number }

/** A legacy socket.io client, WebSocket transport only; socket.io-client reconnects by itself. */
export function openSocketIo(base: string): Promise<Client<IoMessage>> {
  const { messages, next } = recorder<IoMessage>()
  let pid: number | undefined
  let connects = 0
  const socket: Socket = connectSocketIo(base, { transports: ['websocket'], forceNew: true, reconnectionDelay: 50, reconnectionDelayMax: 200 })
  socket.on('broadcast', (message: IoMessage) => messages.push(message))
  socket.on('disconnect', () => (pid = undefined))
  return new Promise((resolve) => {
    const client: Client<IoMessage> = {
      pid: () => pid,
      messages,
      connects: () => connects,
      next,
      send: (text) => socket.emit('message', text),
      close: () => socket.close(),
    }
    socket.on('hello', (hello: { pid: number }) => {
      pid = hello.pid
      if (++connects === 1) resolve(client)
    })
  })
}

/** Open clients until one is connected to each of `workers` workers (each on a fresh connection). */
export async function onEachWorker<M>(open: () => Promise<Client<M>>, workers: number, max = 8): Promise<Client<M>[]> {
  const byPid = new Map<number, Client<M>>()
  for (let i = 0; i < max && byPid.size < workers; i++) {
    const client = await open()
    if (byPid.has(client.pid()!)) client.close()
    else byPid.set(client.pid()!, client)
  }
  return [...byPid.values()]
}
