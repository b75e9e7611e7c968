import type { IncomingMessage } from 'node:http'

/** Reading a request body from the socket: whole, or as a web stream with backpressure. */

/** Whether the request has body framing (GET/HEAD never do, as for a real Request). */
export function hasBody(req: IncomingMessage): boolean {
  const method = req.method
  if (method === 'GET' || method === 'HEAD') return false
  const headers = req.headers
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

/** Read the whole body from the socket. Rejects if the client goes away first. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (req.readableEnded) return resolve(Buffer.alloc(0))
    // Already gone (the client left before the app read): no event will ever come.
    if (req.destroyed) return reject(bodyAborted())
    const chunks: Buffer[] = []
    let length = 0
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      length += chunk.length
    }
    const onEnd = () => {
      cleanup()
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length))
    }
    const onError = (err: Error) => {
      cleanup()
      reject(err)
    }
    const onClose = () => {
      cleanup()
      if (!req.complete) reject(bodyAborted())
    }
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

export function abortError(message: string): Error {
  return new DOMException(message, 'AbortError')
}

export function bodyAborted(): Error {
  return abortError('The client closed the connection before the body was read')
}

/** The request body as a web stream that pulls from the socket (backpressure through pause/resume). */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (req.destroyed) {
          done = true
          controller.error(bodyAborted())
          return
        }
        req.on('data', (chunk: Buffer) => {
          if (done) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 1) <= 0) req.pause()
        })
        req.once('end', () => {
          if (done) return
          done = true
          controller.close()
        })
        req.once('error', (err) => {
          if (done) return
          done = true
          controller.error(err)
        })
        req.once('close', () => {
          if (done || req.complete) return
          done = true
          controller.error(bodyAborted())
        })
        req.pause()
      },
      pull() {
        req.resume()
      },
      cancel() {
        done = true
        // Keep the connection usable: discard the rest instead of destroying the socket.
        req.resume()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

