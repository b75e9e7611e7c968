import http, { type IncomingMessage, type RequestListener, type Server } from 'node:http'
import net, { type AddressInfo } from 'node:net'

export interface Running {
  server: Server
  port: number
  url: string
  close(): Promise<void>
}

/** Listen on an ephemeral port; `close()` also drops idle keep-alive sockets so jest can exit. */
export function listen(handler: RequestListener | { listen: unknown }): Promise<Running> {
  const server = http.createServer(handler as RequestListener)
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        server,
        port,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

export interface RawResponse {
  res: IncomingMessage
  body: Buffer
}

/** A plain node:http request (no agent reuse), collecting the whole body. */
export function request(
  url: string,
  options: http.RequestOptions = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: false, ...options }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Send raw bytes over a socket and collect everything the server sends back until it closes. */
export function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text))
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

/** Resolves with `value` after `ms` without keeping the process alive (for Promise.race guards). */
export const after = <T>(ms: number, value: T) =>
  new Promise<T>((r) => setTimeout(r, ms, value).unref())
