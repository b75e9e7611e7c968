import type http from 'node:http'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'

/**
 * Read an SSE response as it arrives, gunzipping if it is gzip-encoded, and call `onBlock` with each
 * complete event block (the text before a blank line). Returns the decoded body stream so the caller
 * can listen for 'end' and 'error'.
 */
export function readSseBlocks(res: http.IncomingMessage, onBlock: (block: string) => void): Readable {
  const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip()) : res
  let buffer = ''
  body.setEncoding('utf8')
  body.on('data', (chunk: string) => {
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      onBlock(block)
    }
  })
  return body
}
