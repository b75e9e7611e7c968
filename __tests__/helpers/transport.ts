// The one transport module of the test suite: servers on ephemeral ports, plain HTTP requests, raw
// bytes over TCP, and the waits around them.
import http, { type IncomingMessage, type RequestListener, type Server } from 'node:http'
import net, { type AddressInfo } from 'node:net'

export interface Running {
  server: Server
  port: number
  url: string
  close(): Promise<void>
}

/** Listen on an ephemeral port; `close()` also ends kept-alive and half-finished connections. */
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
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}

export interface RawResponse {
  res: IncomingMessage
  body: Buffer
  /** The client side's port: equal ports on two requests through one agent mean a reused connection. */
  localPort: number
}

/**
 * A plain node:http request (no agent reuse unless `options.agent` is given), collecting the whole
 * body. A body given as parts is sent chunked (no Content-Length), one part every 5 ms.
 */
export function request(url: string, options: http.RequestOptions = {}, body?: string | Buffer | (string | Buffer)[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: false, ...options }, (res) => {
      const localPort = res.socket.localPort!
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks), localPort }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (!Array.isArray(body)) return void req.end(body)
    const parts = [...body]
    const next = () => {
      if (parts.length <= 1) return void req.end(parts.shift())
      req.write(parts.shift()!)
      setTimeout(next, 5)
    }
    next()
  })
}

export interface RawResult {
  /** Every byte the server sent. */
  data: Buffer
  /** How the connection ended: the server closed it, reset it, or it was still open at `until`. */
  ended: 'close' | 'reset' | 'open'
}

/**
 * Write `payload` on a fresh TCP connection and collect the reply until the server closes the
 * connection, `until(bytesSoFar)` says enough, or nothing came for `idleMs` (the socket is then
 * closed by us, and `ended` is 'open').
 */
export function raw(
  port: number,
  payload: string | Buffer | ((socket: net.Socket) => void),
  until?: (data: Buffer) => boolean,
  idleMs?: number,
): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let settled = false
    const finish = (ended: RawResult['ended']) => {
      if (settled) return
      settled = true
      clearTimeout(idle)
      socket.destroy()
      resolve({ data: Buffer.concat(chunks), ended })
    }
    let idle: NodeJS.Timeout | undefined
    const quiet = () => {
      if (idleMs === undefined) return
      clearTimeout(idle)
      idle = setTimeout(() => finish('open'), idleMs)
    }
    quiet()
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      quiet()
      if (until !== undefined && until(Buffer.concat(chunks))) finish('open')
    })
    socket.on('error', () => finish('reset'))
    socket.on('close', () => finish('close'))
    if (typeof payload === 'function') payload(socket)
    else socket.write(payload)
  })
}

/** Send `text` and half-close the connection; resolves with everything the server sent (latin1). */
export async function rawRequest(port: number, text: string): Promise<string> {
  const { data, ended } = await raw(port, (socket) => socket.end(text))
  if (ended === 'reset') throw new Error(`connection reset after ${data.length} bytes`)
  return data.toString('latin1')
}

/** Split raw bytes into responses' head (status line + headers, lower-cased names) and the rest. */
export function parseHead(data: Buffer): { status: number; headers: Record<string, string>; rest: Buffer } {
  const end = data.indexOf('\r\n\r\n')
  if (end === -1) throw new Error(`no complete response head in ${JSON.stringify(data.toString('latin1'))}`)
  const lines = data.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(lines[0].split(' ')[1])
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status, headers, rest: data.subarray(end + 4) }
}

/** Count complete responses (status lines) in raw bytes. */
export function countResponses(data: Buffer): number {
  return data.toString('latin1').split(/HTTP\/1\.[01] \d{3}/).length - 1
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Resolves with `value` after `ms` without keeping the process alive (for Promise.race guards). */
export const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value).unref())

/** Poll `predicate` every 10 ms until it holds or `ms` passed; resolves to whether it held. */
export async function waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) return false
    await sleep(10)
  }
  return true
}
