import type { Server } from 'node:http'
import net, { type AddressInfo } from 'node:net'
import WebSocket from 'ws'

/** Listen on an ephemeral port; resolves with the port. */
export function listenOn(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** Close a server after dropping its idle HTTP connections (upgraded sockets are the test's business). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

export interface Client {
  ws: WebSocket
  /** The next message (text as string, binary as Buffer). */
  next(): Promise<string | Buffer>
  closed: Promise<{ code: number; reason: string }>
  /** Headers of the 101 Switching Protocols answer. */
  headers: Record<string, string | string[] | undefined>
}

/** Close every client and wait until each has seen its close frame. */
export async function closeAll(...clients: Client[]): Promise<void> {
  for (const client of clients) client.ws.close()
  await Promise.all(clients.map((client) => client.closed))
}

/** A `ws` client that resolves once open; messages are queued so none is missed. */
export function connect(url: string, options: WebSocket.ClientOptions & { protocols?: string[] } = {}): Promise<Client> {
  const ws = new WebSocket(url, options.protocols, options)
  const queue: (string | Buffer)[] = []
  const waiters: ((m: string | Buffer) => void)[] = []
  ws.on('message', (data: Buffer, isBinary) => {
    const message = isBinary ? data : data.toString('utf8')
    const waiter = waiters.shift()
    if (waiter) waiter(message)
    else queue.push(message)
  })
  let headers: Client['headers'] = {}
  ws.once('upgrade', (res) => (headers = res.headers))
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  })
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({
        ws,
        closed,
        headers,
        next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((r) => waiters.push(r))),
      }),
    )
    ws.once('error', reject)
  })
}

/** What a refused handshake looked like on the wire, and whether the server closed the socket. */
export interface RawAnswer {
  head: string
  status: number
  headers: Record<string, string>
  closedByServer: boolean
}

/** Send a WebSocket handshake by hand and read the raw answer until the server closes. */
export function rawUpgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    const lines = {
      host: `127.0.0.1:${port}`,
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      ...headers,
    }
    socket.write(`GET ${path} HTTP/1.1\r\n${Object.entries(lines).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`)
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => (data += chunk))
    socket.on('error', reject)
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(parse(data, false))
    }, 5000)
    socket.on('end', () => {
      clearTimeout(timer)
      socket.end()
      resolve(parse(data, true))
    })
  })
}

function parse(data: string, closedByServer: boolean): RawAnswer {
  const head = data.split('\r\n\r\n')[0]
  const [statusLine, ...rest] = head.split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of rest) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).toLowerCase()
    headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`
  }
  return { head, status: Number(statusLine.split(' ')[1]), headers, closedByServer }
}

/** Resolve once `predicate()` holds, polling on the event loop (for counts that settle asynchronously). */
export async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now()
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
