/**
 * In-process microbenchmark of one mode's request path, without sockets: a mock request goes through
 * the mode's listener (Express, the bridge, the Hono app, Node's ServerResponse header code) and the
 * CPU time per request is measured. Much less noisy than wrk on a busy machine; use it to compare
 * hot-path changes, and `npm run bench` for the published figures.
 *
 *   tsx bench/micro.ts <mode> <route> [seconds=2] [rounds=5]     → prints CPU ns/request per round
 *   MICRO_COUNT=N tsx bench/micro.ts <mode> <route>              → after the warm-up, exactly N requests
 *   MICRO_WIRE=1 tsx bench/micro.ts <mode> /echo                 → the body arrives after the handler ran
 *     (for `valgrind --tool=callgrind`: the difference of two counts' instructions ÷ the difference of N
 *     is the instructions per request, independent of the machine's load)
 *
 * Modes: node-raw, bridge-raw, bridge-raw-override-off, hono-node-server-raw, express5-floor, bridge-express5, bridge-express4,
 * hono-node-server-express5.
 */
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http'
import { Socket } from 'node:net'
import path from 'node:path'
import { createRequire } from 'node:module'
import express from 'express'
import { getRequestListener } from '@hono/node-server'
import { createHono, createMigratingHono, ECHO_BODY } from './app.js'
import { floor as rawHandler } from './native.js'

const require = createRequire(__filename)
const express4 = require('express4') as (...args: unknown[]) => any
// Told of each response's end by a patch of ServerResponse.prototype.end made before the bridge loads,
// not by wrapping each res.end: the bridge treats a wrapped res.end as middleware's (and hands it
// Buffers), which is not the path to measure.
const DONE = Symbol('micro.done')
const nativeEnd = ServerResponse.prototype.end
ServerResponse.prototype.end = function (this: ServerResponse & Record<symbol, () => void>, ...args: unknown[]) {
  const r = (nativeEnd as (...a: unknown[]) => ServerResponse).apply(this, args)
  this[DONE]()
  return r
} as typeof nativeEnd
// MICRO_SRC=path/to/other/src/index.ts compares another copy of the bridge (e.g. before a change).
const { fetchBridge } = require(process.env.MICRO_SRC ? path.resolve(process.env.MICRO_SRC) : '../src/index.js') as typeof import('../src/index.js')

function inExpress5(mw: unknown): RequestListener {
  const app = express()
  app.use(mw as express.RequestHandler)
  return app as unknown as RequestListener
}

const listeners: Record<string, () => RequestListener> = {
  'node-raw': () => rawHandler,
  // Without Express: what the bridge (and the Hono app) add on top of a raw node:http handler.
  'bridge-raw': () => fetchBridge(createHono()) as RequestListener,
  // The app gets a platform Request (built per request) and responses take the general path.
  'bridge-raw-override-off': () => fetchBridge(createHono(), { overrideGlobalObjects: false }) as RequestListener,
  'hono-node-server-raw': () => getRequestListener(createHono().fetch),
  'express5-floor': () => inExpress5(rawHandler),
  'bridge-express5': () => inExpress5(fetchBridge(createHono())),
  'bridge-express4': () => {
    const app = express4()
    app.use(fetchBridge(createHono()))
    return app
  },
  'hono-node-server-express5': () => inExpress5(getRequestListener(createHono().fetch)),
  // The legacy tax: an Express route (route `/legacy`) alone, and behind a bridge over a migrating
  // Hono app of LEGACY_ROUTES API routes (default 200) with LEGACY_MIDDLEWARE global middleware (cors,
  // secureHeaders; default 2); LEGACY_HONO_MIDDLEWARE, if set, is the bridge's honoMiddleware option.
  'express5-legacy': () => legacyExpress(undefined),
  'bridge-express5-legacy': () =>
    legacyExpress(
      fetchBridge(createMigratingHono(Number(process.env.LEGACY_ROUTES ?? 200), Number(process.env.LEGACY_MIDDLEWARE ?? 2)), {
        honoMiddleware: (process.env.LEGACY_HONO_MIDDLEWARE || undefined) as 'routes' | 'all' | undefined,
      }),
    ),
}

function legacyExpress(bridge: unknown): RequestListener {
  const app = express()
  if (bridge !== undefined) app.use(bridge as express.RequestHandler)
  app.get('/legacy', (_req, res) => {
    res.json({ legacy: true })
  })
  return app as unknown as RequestListener
}


const [mode, route = '/', secondsArg = '2', roundsArg = '5'] = process.argv.slice(2)
if (!listeners[mode]) throw new Error(`mode must be one of ${Object.keys(listeners).join(', ')}`)
const listener = listeners[mode]()
const socket = new Socket()
const post = route === '/echo'
const body = Buffer.from(ECHO_BODY)
const rawHeaders = ['Host', '127.0.0.1:3000', 'User-Agent', 'wrk', 'Accept', '*/*']
if (post) rawHeaders.push('Content-Type', 'application/json', 'Content-Length', String(body.length))

function once(): Promise<void> {
  const req = new IncomingMessage(socket)
  req.method = post ? 'POST' : 'GET'
  req.url = route
  req.rawHeaders = rawHeaders
  const headers: Record<string, string> = {}
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i].toLowerCase()] = rawHeaders[i + 1]
  req.headers = headers
  if (!wire) end(req)
  // A high-water mark above the /stream body, since nothing drains a socketless response.
  const res = new (ServerResponse as any)(req, { highWaterMark: 1 << 20 }) as ServerResponse
  return new Promise<void>((resolve) => {
    ;(res as unknown as Record<symbol, () => void>)[DONE] = resolve
    listener(req, res)
    // As from a socket: the body after the handler ran (a prompt answer is written before the parser
    // marks the request complete), each step after the microtasks of the one before.
    if (wire) setImmediate(end, req)
  })
}

const wire = post && process.env.MICRO_WIRE === '1'

function end(req: IncomingMessage): void {
  if (post) req.push(body)
  if (wire) setImmediate(complete, req)
  else complete(req)
}

function complete(req: IncomingMessage): void {
  req.complete = true
  req.push(null)
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

async function main(): Promise<void> {
  const seconds = Number(secondsArg)
  const rounds = Number(roundsArg)
  // Warm up the JIT before measuring.
  for (let i = 0; i < 20000; i++) {
    await once()
    if (i % 200 === 0) await tick()
  }
  const count = Number(process.env.MICRO_COUNT ?? 0)
  if (count > 0) {
    for (let i = 0; i < count; i++) {
      await once()
      if (i % 200 === 0) await tick()
    }
    console.log(`${mode} ${route}: ${count} requests after the warm-up`)
    return
  }
  const results: number[] = []
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage()
    const t0 = Date.now()
    let n = 0
    while (Date.now() - t0 < seconds * 1000) {
      for (let i = 0; i < 200; i++) await once()
      n += 200
      // Let nextTick callbacks and macrotasks run, or requests pile up in the tick queue.
      await tick()
    }
    const used = process.cpuUsage(start)
    results.push(((used.user + used.system) * 1000) / n)
  }
  results.sort((a, b) => a - b)
  if (process.env.MICRO_MEM) console.log(process.memoryUsage())
  console.log(`${mode} ${route}: median ${Math.round(results[results.length >> 1])} ns/req (rounds: ${results.map(Math.round).join(' ')})`)
}

main().then(() => process.exit(0))
