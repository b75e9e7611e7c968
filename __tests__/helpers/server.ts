import http, { type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

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
