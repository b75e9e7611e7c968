// Memory figures for the README (npm run bench:memory): RSS growth of the server while 256 MiB stream
// down and up through the bridge, and the heap after GC around 100,000 requests. The server runs in a
// child process (bench/memory-server.ts) so the client's own memory does not count.
import { fork, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'

const MiB = 1024 * 1024
const STREAM_BYTES = 256 * MiB
const RSS_LIMIT = 64 * MiB
const REQUESTS = 100_000
const CONCURRENCY = 32
const HEAP_TOLERANCE = 0.1

let nextId = 0
function ask<T>(child: ChildProcess, cmd: string): Promise<T> {
  const id = ++nextId
  return new Promise((resolve) => {
    const onMessage = (msg: { id?: number; value: T }) => {
      if (msg.id !== id) return
      child.off('message', onMessage)
      resolve(msg.value)
    }
    child.on('message', onMessage)
    child.send({ id, cmd })
  })
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })

function request(port: number, method: string, path: string, body?: Buffer | ((req: http.ClientRequest) => void)): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {}
    if (Buffer.isBuffer(body)) headers['content-type'] = 'application/json'
    if (typeof body === 'function') headers['content-length'] = STREAM_BYTES
    const req = http.request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
      let bytes = 0
      let text = ''
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        if (text.length < 256) text += chunk.toString()
      })
      res.on('end', () => resolve({ status: res.statusCode!, bytes, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (typeof body === 'function') body(req)
    else req.end(body)
  })
}

function streamUp(req: http.ClientRequest): void {
  const chunk = Buffer.alloc(64 * 1024, 97)
  let sent = 0
  const pump = () => {
    while (sent < STREAM_BYTES) {
      sent += chunk.length
      if (!req.write(chunk)) return void req.once('drain', pump)
    }
    req.end()
  }
  pump()
}

async function manyRequests(port: number, count: number): Promise<void> {
  let issued = 0
  const echo = Buffer.from(JSON.stringify({ hello: 'world', n: 1 }))
  const worker = async () => {
    while (issued < count) {
      const i = issued++
      const res = i % 2 === 0 ? await request(port, 'GET', '/small') : await request(port, 'POST', '/echo', echo)
      if (res.status !== 200) throw new Error(`request ${i}: status ${res.status}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`

async function main(): Promise<void> {
  const child = fork(path.join(__dirname, 'memory-server.ts'), {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)))
  const results: Array<[string, string, boolean]> = []

  // Warm-up: JIT, pools and sockets exist before the baselines are taken.
  await manyRequests(port, 2000)
  await request(port, 'GET', `/download/${16 * MiB}`)

  await ask(child, 'gc')
  let base = await ask<number>(child, 'reset-peak')
  const down = await request(port, 'GET', `/download/${STREAM_BYTES}`)
  if (down.bytes !== STREAM_BYTES) throw new Error(`download: got ${down.bytes} bytes`)
  let growth = (await ask<number>(child, 'peak')) - base
  results.push(['256 MiB streamed down: server RSS growth', mib(growth), growth < RSS_LIMIT])

  await ask(child, 'gc')
  base = await ask<number>(child, 'reset-peak')
  const up = await request(port, 'POST', '/upload', streamUp)
  if (up.text !== String(STREAM_BYTES)) throw new Error(`upload: server counted ${up.text}`)
  growth = (await ask<number>(child, 'peak')) - base
  results.push(['256 MiB streamed up: server RSS growth', mib(growth), growth < RSS_LIMIT])

  const before = (await ask<NodeJS.MemoryUsage>(child, 'gc')).heapUsed
  const started = Date.now()
  await manyRequests(port, REQUESTS)
  const seconds = (Date.now() - started) / 1000
  const after = (await ask<NodeJS.MemoryUsage>(child, 'gc')).heapUsed
  const change = after / before - 1
  results.push([
    `${REQUESTS.toLocaleString('en')} requests (${seconds.toFixed(1)} s): heap after GC`,
    `${mib(before)} → ${mib(after)} (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%)`,
    Math.abs(change) <= HEAP_TOLERANCE,
  ])

  const stray = await ask<string[]>(child, 'stray')
  results.push(['unhandledRejection / uncaughtException in the server', String(stray.length), stray.length === 0])
  for (const line of stray) console.error(line)

  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.send({ cmd: 'exit' })
  await exited
  agent.destroy()

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
  console.log(`${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${os.platform()} ${os.arch()} · ${cpu} × ${os.cpus().length}`)
  console.log('| measurement | result | within bound |')
  console.log('| --- | --- | --- |')
  for (const [what, value, ok] of results) console.log(`| ${what} | ${value} | ${ok ? 'yes' : 'NO'} |`)
  if (results.some(([, , ok]) => !ok)) process.exitCode = 1
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
