/**
 * Request bodies the app left unread. Once the response is out, the rest of the body is read and
 * discarded so the client (still uploading) receives the answer instead of a reset and the kept-alive
 * connection can carry the next request. The drain is bounded (the `drain` option): past `maxBytes`
 * or `maxMs` the connection is closed (FIN after the response, then a short linger). It also ends
 * before the server's own `requestTimeout` (counted from when the bridge saw the request) and
 * `timeout` would fire: Node answers an incomplete request 408 on a connection whose response is
 * done, so a drain outliving them would add an unsolicited 408 after the app's answer.
 * Only requests with an unfinished body get here; state lives on the request, no closures.
 */

import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'
import { abandonRead } from './body-hand-over.js'
import { readToEnd } from './body-read.js'

export interface DrainBounds {
  maxBytes: number
  maxMs: number
}

/** 4 MiB and 5 s: enough for a client to finish an upload it had mostly sent. */
export const DEFAULT_DRAIN: DrainBounds = Object.freeze({ maxBytes: 4 * 1024 * 1024, maxMs: 5000 })
/** The drain ends this long before the server's own timeout (the bridge sees a request after Node does). */
const SAFETY_MIN_MS = 100
/** After closing our side, how long unread bytes are still discarded before the socket is destroyed. */
const LINGER_MS = 1000

const DRAIN = Symbol('express-fetch-bridge/drain')
const SEEN = Symbol('express-fetch-bridge/seen-at')
const BOUNDS = Symbol('express-fetch-bridge/drain-bounds')

interface DrainState {
  left: number
  timer: NodeJS.Timeout
}

type DrainingRequest = IncomingMessage & { [DRAIN]?: DrainState | undefined; [SEEN]?: number; [BOUNDS]?: DrainBounds }

/**
 * Called by the bridge for a request with body framing whose body is still arriving: when, and with
 * which bounds. Only such a request is drained.
 */
export function noteUnfinishedBody(req: IncomingMessage, bounds: DrainBounds): void {
  const r = req as DrainingRequest
  r[SEEN] = Date.now()
  if (bounds !== DEFAULT_DRAIN) r[BOUNDS] = bounds
}

/** Call after `res.end()`: starts the bounded drain if the request body has not been read to its end. */
export function drainAfterResponse(req: IncomingMessage): void {
  // HTTP/2: node:http2 ends the stream with RST_STREAM(NO_ERROR) once the response is done (RFC 9113
  // §8.1); the connection, shared by other streams, is never the drain's to close.
  const r = req as DrainingRequest
  // Only a request the bridge saw with its body still arriving (noted then, so headers are not read again).
  if (req.complete || r[SEEN] === undefined || readToEnd(req) || req.destroyed || req.httpVersionMajor === 2) return
  if (r[DRAIN] !== undefined) return
  abandonRead(req)
  const bounds = r[BOUNDS] ?? DEFAULT_DRAIN
  const ms = drainTime(r, bounds.maxMs)
  if (ms <= 0) return giveUp(r)
  const timer = setTimeout(onDrainTimeout, ms, r)
  timer.unref()
  r[DRAIN] = { left: bounds.maxBytes, timer }
  r.on('data', onDrainData)
  r.once('end', stopDrain)
  r.once('close', stopDrain)
  r.resume()
}

/** `maxMs`, cut short so the drain ends before the server's `requestTimeout` or `timeout` would. */
function drainTime(req: DrainingRequest, maxMs: number): number {
  const server = (req.socket as { server?: Server } | null)?.server
  if (server === undefined || server === null) return maxMs
  let ms = maxMs
  const requestTimeout = server.requestTimeout
  if (requestTimeout > 0) {
    const elapsed = req[SEEN] === undefined ? 0 : Date.now() - req[SEEN]
    ms = Math.min(ms, requestTimeout - elapsed - Math.max(SAFETY_MIN_MS, requestTimeout / 10))
  }
  const idle = server.timeout
  if (idle > 0) ms = Math.min(ms, idle - Math.max(SAFETY_MIN_MS, idle / 10))
  return ms
}

function onDrainData(this: DrainingRequest, chunk: Buffer): void {
  const state = this[DRAIN]
  if (state === undefined) return
  // A body stream the app stopped reading pauses the request on every chunk: keep it flowing.
  if (this.isPaused()) this.resume()
  state.left -= chunk.length
  if (state.left < 0) giveUp(this)
}

function onDrainTimeout(req: DrainingRequest): void {
  if (req[DRAIN] !== undefined) giveUp(req)
}

function stopDrain(this: DrainingRequest): void {
  const state = this[DRAIN]
  if (state === undefined) return
  clearTimeout(state.timer)
  this[DRAIN] = undefined
  this.off('data', onDrainData)
  this.off('end', stopDrain)
  this.off('close', stopDrain)
}

function giveUp(req: DrainingRequest): void {
  stopDrain.call(req)
  const socket = req.socket
  if (socket === null || socket.destroyed) return
  // Keep discarding while our FIN (queued after the response) reaches the client: closing with
  // unread bytes would send a reset that can overtake the answer.
  req.on('data', discard)
  req.resume()
  socket.end()
  setTimeout(destroySocket, LINGER_MS, socket).unref()
}

function discard(): void {}

function destroySocket(socket: Socket): void {
  socket.destroy()
}
