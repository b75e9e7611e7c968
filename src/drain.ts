import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { hasBody } from './request-body.js'

/**
 * Request bodies the app left unread. Once the response is out, the rest of the body is read and
 * discarded so the client (still uploading) receives the answer instead of a reset and the kept-alive
 * connection can carry the next request. The drain is bounded: past {@link DRAIN_MAX_BYTES} or
 * {@link DRAIN_MAX_MS} the connection is closed (FIN after the response, then a short linger).
 * Only requests with an unfinished body get here; state lives on the request, no closures.
 */

/** Bytes read and discarded after the response before the connection is closed. */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024
/** Time allowed for the rest of the body to arrive after the response. */
export const DRAIN_MAX_MS = 5000
/** After closing our side, how long unread bytes are still discarded before the socket is destroyed. */
const LINGER_MS = 1000

const DRAIN = Symbol('fetchBridge.drain')

interface DrainState {
  left: number
  timer: NodeJS.Timeout
}

type DrainingRequest = IncomingMessage & { [DRAIN]?: DrainState }

/** Call after `res.end()`: starts the bounded drain if the request body has not been read to its end. */
export function drainAfterResponse(req: IncomingMessage): void {
  if (req.complete || req.destroyed || !hasBody(req)) return
  const r = req as DrainingRequest
  if (r[DRAIN] !== undefined) return
  const timer = setTimeout(onDrainTimeout, DRAIN_MAX_MS, r)
  timer.unref()
  r[DRAIN] = { left: DRAIN_MAX_BYTES, timer }
  r.on('data', onDrainData)
  r.once('end', stopDrain)
  r.once('close', stopDrain)
  r.resume()
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
