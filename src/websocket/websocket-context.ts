/**
 * An open Hono WebSocket: the `ws` context handed to the route's events (the shape of Hono's
 * WSContext) and the wiring from `ws` events to them. Nothing a handler throws or rejects with
 * escapes: it goes to the route's `onError` option (or the attachment's).
 */

import { isThenable } from '../core/app-kinds.js'
import type { BinaryType } from '../core/fetch-types.js'
import type { PendingUpgrade, RouteEvents } from './websocket-helper.js'
import type { WebSocketLike } from './websocket-types.js'

// Node 20 has neither CloseEvent nor ErrorEvent as globals.
class BridgeCloseEvent extends Event {
  readonly code: number
  readonly reason: string
  readonly wasClean: boolean
  constructor(code: number, reason: string) {
    super('close')
    this.code = code
    this.reason = reason
    this.wasClean = code !== 1006
  }
}

class BridgeErrorEvent extends Event {
  readonly error: unknown
  readonly message: string
  constructor(error: unknown) {
    super('error')
    this.error = error
    this.message = error instanceof Error ? error.message : String(error)
  }
}

/** What route handlers get as `ws`: Hono's WSContext surface, plus `bufferedAmount` for backpressure. */
class BridgeWSContext {
  readonly raw: WebSocketLike
  readonly url: URL | null
  /** The subprotocol chosen, `''` for none (as @hono/node-ws gives it). */
  readonly protocol: string
  binaryType: BinaryType = 'arraybuffer'

  constructor(ws: WebSocketLike, url: string | undefined) {
    this.raw = ws
    this.url = url === undefined ? null : new URL(url)
    this.protocol = ws.protocol
  }

  get readyState(): 0 | 1 | 2 | 3 {
    return this.raw.readyState
  }

  /** Bytes sent but not yet handed to the network; wait while it is high (see README "Backpressure"). */
  get bufferedAmount(): number {
    return this.raw.bufferedAmount
  }

  send(source: string | ArrayBuffer | Uint8Array, options?: { compress?: boolean }): void {
    this.raw.send(source, options?.compress === undefined ? undefined : { compress: options.compress })
  }

  close(code?: number, reason?: string): void {
    this.raw.close(code, reason)
  }
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer
}

/** A `ws` message as the Fetch world sees it: text as a string, binary as ArrayBuffer (or Blob). */
function messageData(
  data: Buffer | ArrayBuffer | Buffer[],
  isBinary: boolean,
  binaryType: BinaryType,
): string | ArrayBuffer | Blob {
  const buf = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data
  if (!isBinary) return buf.toString('utf8')
  const bytes = toArrayBuffer(buf)
  return binaryType === 'blob' ? new Blob([bytes]) : bytes
}

export function openSocket(ws: WebSocketLike, pending: PendingUpgrade, reportError: (err: unknown) => void): void {
  const events: RouteEvents = pending.events ?? {}
  const onError = pending.options?.onError ?? reportError
  const ctx = new BridgeWSContext(ws, pending.url)

  const call = (handler: ((evt: any, ws: any) => unknown) | undefined, evt: Event): void => {
    if (handler === undefined) return
    try {
      const result = handler(evt, ctx)
      if (isThenable(result)) {
        ;(result as Promise<unknown>).then(undefined, onError)
      }
    } catch (err) {
      onError(err)
    }
  }

  ws.on('message', (data, isBinary) => {
    call(events.onMessage, new MessageEvent('message', { data: messageData(data, isBinary, ctx.binaryType) }))
  })
  ws.on('close', (code, reason) => call(events.onClose, new BridgeCloseEvent(code, reason.toString())))
  // Always listened to: an 'error' without a listener would crash the process.
  ws.on('error', (err) => call(events.onError, new BridgeErrorEvent(err)))
  call(events.onOpen, new Event('open'))
}
