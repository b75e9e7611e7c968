/**
 * One benchmark server: `node --import tsx bench/server.ts <mode>`. Listens on an ephemeral port on
 * 127.0.0.1, prints `{"port":N}` on stdout, and exits cleanly on SIGTERM/SIGINT (so --cpu-prof
 * profiles get written).
 */
import http, { type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import path from 'node:path'
import express from 'express'
import { Hono } from 'hono'
import { getRequestListener, serve } from '@hono/node-server'
import { createServerAdapter } from '@whatwg-node/server'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { fetchBridge } from '../src/index.js'
import { CHUNK, createHono, JSON_BODY, rawHandler, STREAM_CHUNKS } from './app.js'

// Express 4 is installed under an alias and has no bundled types.
const express4 = createRequire(__filename)('express4') as (...args: unknown[]) => any

type Factory = () => RequestListener | Promise<Server>

/** The bench routes answered by Express itself (res.send / res.json). */
function expressNative(): express.Express {
  const app = express()
    app.get('/', (_req, res) => {
      res.set('x-foo', 'bar').type('text/plain;charset=UTF-8').send('foo')
    })
    const foo = Buffer.from('foo')
    app.get('/uint8array', (_req, res) => {
      res.send(foo)
    })
    app.get('/blob', (_req, res) => {
      res.send(foo)
    })
    app.get('/json', (_req, res) => {
      res.json(JSON_BODY)
    })
    app.post('/echo', express.json(), (req, res) => {
      res.json(req.body)
    })
    app.get('/stream', (_req, res) => {
      res.type('text/plain; charset=utf-8')
      for (let i = 0; i < STREAM_CHUNKS; i++) res.write(CHUNK)
      res.end()
    })
  return app
}

function express5With(middleware: unknown): RequestListener {
  const app = express()
  app.use(middleware as express.RequestHandler)
  return app as unknown as RequestListener
}

const factories: Record<string, Factory> = {
  'node-raw': () => rawHandler,
  'express5-floor': () => express5With(rawHandler),
  'express5-native': () => expressNative() as unknown as RequestListener,
  'bridge-express5': () => express5With(fetchBridge(createHono())),
  'bridge-express4': () => {
    const app = express4()
    app.use(fetchBridge(createHono()))
    return app as RequestListener
  },
  'bridge-front-door': () => fetchBridge(createHono(), { fallback: expressNative() }),
  // A Hono app with routes elsewhere: every bench route falls back to the Express app.
  'bridge-front-door-fallback': () => {
    const hono = new Hono()
    hono.get('/migrated/*', (c) => c.text('migrated'))
    return fetchBridge(hono, { fallback: expressNative() })
  },
  'bridge-express5-baseline': () => {
    const { fetchBridge: baseline } = createRequire(__filename)(path.resolve(process.env.BENCH_BASELINE_SRC!)) as typeof import('../src/index.js')
    return express5With(baseline(createHono()))
  },
  'hono-node-server-express5': () => express5With(getRequestListener(createHono().fetch)),
  'whatwg-node-express5': () => express5With(createServerAdapter(createHono().fetch as any)),
  'remix-express5': () => {
    const hono = createHono()
    return express5With(createRequestListener((request) => hono.fetch(request)))
  },
  'hono-node-server-serve': () =>
    new Promise<Server>((resolve) => {
      const server = serve({ fetch: createHono().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server))
    }),
}

async function main(): Promise<void> {
  const mode = process.argv[2]
  const factory = factories[mode]
  if (factory === undefined) throw new Error(`unknown mode ${mode}; known: ${Object.keys(factories).join(', ')}`)
  const made = await factory()
  let server: Server
  if (typeof made === 'function') {
    server = http.createServer(made)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  } else {
    server = made
  }
  // wrk keeps connections alive for the whole run; Node's default 5 s keep-alive timeout is enough.
  const exit = () => process.exit(0)
  process.on('SIGTERM', exit)
  process.on('SIGINT', exit)
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid }) + '\n')
}

main().catch((err) => {
  process.stderr.write(`bench server failed: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
})
