import express from 'express'
import { serve as nodeServerServe } from '@hono/node-server'
import type { Hono } from 'hono'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { fetchBridge, type FetchBridgeOptions } from '../../src/index.js'

/** Where a Hono app runs: every host that gives it Node bindings (c.env.incoming / outgoing). */
export type HostName = 'front-door' | 'middleware mode' | 'node:http' | '@hono/node-server serve'

export interface Hosted {
  url: string
  close(): Promise<void>
}

function listening(server: Server): Promise<Hosted> {
  return new Promise((resolve) => {
    const ready = () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    }
    if (server.listening) ready()
    else server.once('listening', ready)
  })
}

/** A legacy Express app behind Hono: answers `/legacy` and its own 404. */
export function legacyApp(): express.Express {
  const app = express()
  app.get('/legacy', (_req, res) => {
    res.send('legacy')
  })
  return app
}

/** `options` go to the bridge (not to @hono/node-server). */
export function host(name: HostName, hono: Hono<any>, legacy: express.Express = legacyApp(), options?: FetchBridgeOptions): Promise<Hosted> {
  switch (name) {
    case 'front-door':
      return listening(fetchBridge(hono, { ...options, fallback: legacy }).listen(0, '127.0.0.1'))
    case 'middleware mode':
      legacy.use(fetchBridge(hono, options))
      return listening(legacy.listen(0, '127.0.0.1'))
    case 'node:http':
      return listening(fetchBridge(hono, options).listen(0, '127.0.0.1'))
    case '@hono/node-server serve':
      return listening(nodeServerServe({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }) as Server)
  }
}

export const ALL_HOSTS: HostName[] = ['front-door', 'middleware mode', 'node:http', '@hono/node-server serve']
/** The two hosts the issue asks every package to be tested under. */
export const MAIN_HOSTS: HostName[] = ['front-door', '@hono/node-server serve']
