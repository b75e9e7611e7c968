// express-fetch-bridge front door: Hono routes served without Express. The fallback (where an Express
// app would go) is a bare handler so that Express is not loaded; no bench route reaches it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fetchBridge } from '../../src/index.js'
import { createHono } from '../app.js'
import { ready } from './listen.js'

const fallback = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(404, { 'content-length': 0 })
  res.end()
}
ready(fetchBridge(createHono(), { fallback }).listen(0, '127.0.0.1'))
