import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { CHUNK, DOWNLOAD_CHUNK, DOWNLOAD_FIXED, DOWNLOAD_STREAM_BYTES, JSON_BODY, MW_HEADERS, STREAM_CHUNKS } from './workload.js'

/**
 * The floors: the bench routes answered natively with writeHead + end, no Fetch objects. `floor` does
 * what a hand-written Express route does; `floorWithAppWork` also does the Hono app's own web-object
 * work (the Uint8Array, the Blob built and read back, the ReadableStream built and pumped), which no
 * adapter can avoid, so that a ratio against it measures the adapter alone.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void

const FOO = Buffer.from('foo')
const MW_NAMES = Object.keys(MW_HEADERS)

function readBody(req: IncomingMessage, then: (text: string) => void): void {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => then(Buffer.concat(chunks).toString('utf8')))
}

function sendJson(res: ServerResponse, value: unknown): void {
  const text = JSON.stringify(value)
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function sendBytes(res: ServerResponse, bytes: Uint8Array): void {
  res.writeHead(200, { 'content-length': bytes.byteLength })
  res.end(bytes)
}

/** What cors() + secureHeaders() do natively: one setHeader per header, per request. */
function mwHeaders(res: ServerResponse): void {
  for (let i = 0; i < MW_NAMES.length; i++) res.setHeader(MW_NAMES[i], MW_HEADERS[MW_NAMES[i]])
}

/** An upload read whole into one buffer (what `express.raw()` or the app's arrayBuffer() ends with). */
function readWhole(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => sendJson(res, { bytes: Buffer.concat(chunks).byteLength }))
}

/** An upload streamed: each chunk looked at once, nothing kept. */
function readCounting(req: IncomingMessage, res: ServerResponse): void {
  let bytes = 0
  req.on('data', (c: Buffer) => (bytes += c.byteLength))
  req.on('end', () => sendJson(res, { bytes }))
}

/** The 64 MiB download written natively, chunk by chunk, waiting for 'drain' when the socket is full. */
function writeDownload(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  let sent = 0
  const more = () => {
    while (sent < DOWNLOAD_STREAM_BYTES) {
      sent += DOWNLOAD_CHUNK.byteLength
      if (!res.write(DOWNLOAD_CHUNK)) return void res.once('drain', more)
    }
    res.end()
  }
  more()
}

function common(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? ''
  if (url.startsWith('/upload/')) {
    readWhole(req, res)
    return true
  }
  if (url.startsWith('/upload-stream/')) {
    readCounting(req, res)
    return true
  }
  switch (url) {
    case '/download/fixed':
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': DOWNLOAD_FIXED.byteLength })
      res.end(DOWNLOAD_FIXED)
      return true
    case '/':
      res.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8', 'x-foo': 'bar', 'content-length': 3 })
      res.end(FOO)
      return true
    case '/json':
      sendJson(res, JSON_BODY)
      return true
    case '/mw':
      mwHeaders(res)
      sendJson(res, JSON_BODY)
      return true
    case '/etag': {
      // hono/etag's work: the body's SHA-1 as a strong ETag.
      const text = JSON.stringify(JSON_BODY)
      const tag = `"${createHash('sha1').update(text).digest('hex')}"`
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), etag: tag })
      res.end(text)
      return true
    }
    case '/echo':
      readBody(req, (text) => sendJson(res, JSON.parse(text)))
      return true
  }
  return false
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-length': 0 })
  res.end()
}

export const floor: Handler = (req, res) => {
  if (common(req, res)) return
  switch (req.url) {
    case '/uint8array':
    case '/blob':
      return sendBytes(res, FOO)
    case '/stream':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      for (let i = 0; i < STREAM_CHUNKS; i++) res.write(CHUNK)
      res.end()
      return
    case '/download/stream':
      return writeDownload(res)
  }
  notFound(res)
}

/** A web stream pumped natively, waiting for 'drain' when the socket is full (what an adapter must do). */
async function pump(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve))
  }
  res.end()
}

export const floorWithAppWork: Handler = (req, res) => {
  if (common(req, res)) return
  switch (req.url) {
    case '/uint8array':
      return sendBytes(res, new Uint8Array([102, 111, 111]))
    case '/blob': {
      const blob = new Blob([new Uint8Array([102, 111, 111])])
      blob.arrayBuffer().then((ab) => sendBytes(res, new Uint8Array(ab)), (err) => res.destroy(err))
      return
    }
    case '/stream': {
      // The app's stream exactly as bench/app.ts builds it.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < STREAM_CHUNKS; i++) controller.enqueue(CHUNK)
          controller.close()
        },
      })
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      pump(res, body).catch((err) => res.destroy(err))
      return
    }
    case '/download/stream': {
      // The app's 64 MiB stream exactly as bench/app.ts builds it.
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === DOWNLOAD_STREAM_BYTES) return controller.close()
          controller.enqueue(DOWNLOAD_CHUNK)
          sent += DOWNLOAD_CHUNK.byteLength
        },
      })
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      pump(res, body).catch((err) => res.destroy(err))
      return
    }
  }
  notFound(res)
}
