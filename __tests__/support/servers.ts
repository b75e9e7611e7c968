import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export interface Running {
  server: http.Server
  port: number
  close(): Promise<void>
}

/** Listen on an ephemeral port; `close()` also ends kept-alive and half-finished connections. */
export async function serve(listener: http.RequestListener): Promise<Running> {
  const server = http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface RawResult {
  /** Every byte the server sent. */
  data: Buffer
  /** How the connection ended: the server closed it, reset it, or it was still open at `until`. */
  ended: 'close' | 'reset' | 'open'
}

/**
 * Write `payload` on a fresh TCP connection and collect the reply until the server closes the
 * connection or `until(bytesSoFar)` says enough (the socket is then closed by us).
 */
export function raw(
  port: number,
  payload: string | Buffer | ((socket: net.Socket) => void),
  until?: (data: Buffer) => boolean,
): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let settled = false
    const finish = (ended: RawResult['ended']) => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve({ data: Buffer.concat(chunks), ended })
    }
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      if (until !== undefined && until(Buffer.concat(chunks))) finish('open')
    })
    socket.on('error', () => finish('reset'))
    socket.on('close', () => finish('close'))
    if (typeof payload === 'function') payload(socket)
    else socket.write(payload)
  })
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

/** Poll `predicate` every 10 ms until it holds or `ms` passed; resolves to whether it held. */
export async function waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) return false
    await sleep(10)
  }
  return true
}
