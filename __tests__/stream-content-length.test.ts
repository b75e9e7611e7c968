import express from 'express'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { fetchBridge } from '../src/index.js'

const enc = new TextEncoder()

/** A stream of the given chunks, sent with the given Content-Length. */
function declared(length: number, chunks: string[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const chunk of chunks) {
          controller.enqueue(enc.encode(chunk))
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        controller.close()
      },
    }),
    { headers: { 'content-length': String(length) } },
  )
}

/** Raw keep-alive request: everything the server sent until it closed or went quiet. */
function raw(port: number, path: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`))
    let text = ''
    let closed = false
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('close', () => {
      closed = true
      clearTimeout(quiet)
      resolve({ text, closed })
    })
    socket.on('error', () => {})
    // A kept-alive connection that stays open: give up waiting after a while.
    const quiet = setTimeout(() => {
      socket.destroy()
      resolve({ text, closed })
    }, 600)
  })
}

describe('a stream body with a Content-Length from the app', () => {
  const errors: Error[] = []
  let server: http.Server
  let port: number
  beforeAll(async () => {
    const app = express()
    app.use(
      fetchBridge((request: Request) => {
        const path = new URL(request.url).pathname
        if (path === '/exact') return declared(6, ['abc', 'def'])
        if (path === '/short') return declared(10, ['abc', 'def'])
        if (path === '/long') return declared(4, ['ab', 'cdef'])
        return undefined
      }),
    )
    app.use((err: Error, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
      errors.push(err)
      next(err)
    })
    server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  beforeEach(() => {
    errors.length = 0
  })

  const body = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4)

  test('exact: sent with that Content-Length, the connection stays open for the next request', async () => {
    const { text, closed } = await raw(port, '/exact')
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(text.toLowerCase()).toContain('content-length: 6')
    expect(body(text)).toBe('abcdef')
    expect(closed).toBe(false)
    expect(errors).toHaveLength(0)
  })

  test('shorter than declared: the connection is closed instead of leaving the client waiting', async () => {
    const { text, closed } = await raw(port, '/short')
    expect(body(text)).toBe('abcdef')
    expect(closed).toBe(true)
    expect(errors.map((e) => e.message)).toEqual(['The response stream ended before its Content-Length'])
  })

  test('longer than declared: no byte past the Content-Length is sent, then the connection is closed', async () => {
    const { text, closed } = await raw(port, '/long')
    expect(body(text)).toBe('ab')
    expect(closed).toBe(true)
    expect(errors.map((e) => e.message)).toEqual(['The response stream produced more bytes than its Content-Length'])
  })
})
