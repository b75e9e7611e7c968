/** Loopback clients for bench/sse-latency.ts: raw sockets, so the client itself stays cheap. */
import { connect, type Socket } from 'node:net'

const now = () => performance.timeOrigin + performance.now()

/** Open `count` sockets (`batch` at a time, under the listen backlog), each sending `request` and resolving on the first reply bytes. */
export async function openMany(port: number, count: number, request: string, onData: (s: Socket, text: string) => void, batch = 100): Promise<Socket[]> {
  const sockets: Socket[] = []
  for (let i = 0; i < count; i += batch) {
    const opened = Array.from({ length: Math.min(batch, count - i) }, () =>
      new Promise<Socket>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.write(request))
        s.setEncoding('latin1')
        s.once('error', reject)
        s.once('data', (text: string) => {
          if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`unexpected answer: ${text.slice(0, 80)}`))
          resolve(s)
          onData(s, text)
          s.on('data', (more: string) => onData(s, more))
        })
      }),
    )
    sockets.push(...(await Promise.all(opened)))
  }
  return sockets
}

export function closeAll(sockets: Socket[]): Promise<void> {
  return Promise.all(sockets.map((s) => new Promise<void>((resolve) => {
    if (s.destroyed) return resolve()
    s.once('close', () => resolve())
    s.destroy()
  }))).then(() => undefined)
}

/**
 * SSE listener: every `data: <ms>` line is one event carrying the app's wall-clock write time;
 * `record(latencyMs)` gets now − that time. A line split across two reads is joined first.
 */
export function sseRecorder(record: (ms: number) => void): (s: Socket, text: string) => void {
  const rest = new WeakMap<Socket, string>()
  return (s, text) => {
    const t = now()
    const buf = (rest.get(s) ?? '') + text
    const re = /data: ([\d.]+)\n/g
    let m: RegExpExecArray | null
    let end = 0
    while ((m = re.exec(buf)) !== null) {
      record(t - Number(m[1]))
      end = re.lastIndex
    }
    const tail = buf.slice(end)
    rest.set(s, tail.length > 64 ? '' : tail)
  }
}
