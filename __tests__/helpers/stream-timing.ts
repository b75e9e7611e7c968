import http from 'node:http'
import zlib from 'node:zlib'
import { sleep } from './transport.js'

export const encoder = new TextEncoder()

/** First chunk ready at once, the next one 400 ms later (the seed's bug held the headers back). */
export function slowStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode('data: first\n\n'))
      await sleep(400)
      controller.enqueue(encoder.encode('data: second\n\n'))
      controller.close()
    },
  })
}

/** Sends 'partial' at once, then fails 20 ms later: the headers are out when the body errors. */
export function failingStream(message: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode('partial'))
      await sleep(20)
      controller.error(new Error(message))
    },
  })
}

export interface Timing {
  headersAt: number
  firstChunkAt: number
  firstChunk: string
  all: string
  headers: http.IncomingHttpHeaders
}

/** Time from the moment the request was sent to the response headers and to the first body bytes. */
export function timed(url: string, headers: Record<string, string> = {}): Promise<Timing> {
  return new Promise((resolve, reject) => {
    let sentAt = 0
    const req = http.request(url, { agent: false, headers }, (res) => {
      const headersAt = performance.now() - sentAt
      const gzip = res.headers['content-encoding'] === 'gzip'
      const body = gzip ? res.pipe(zlib.createGunzip()) : res
      let firstChunkAt = -1
      let firstChunk = ''
      let all = ''
      body.on('data', (chunk: Buffer) => {
        if (firstChunkAt === -1) {
          firstChunkAt = performance.now() - sentAt
          firstChunk = chunk.toString()
        }
        all += chunk.toString()
      })
      body.on('end', () => resolve({ headersAt, firstChunkAt, firstChunk, all, headers: res.headers }))
      body.on('error', reject)
    })
    req.on('error', reject)
    req.end(() => (sentAt = performance.now()))
    sentAt = performance.now()
  })
}

