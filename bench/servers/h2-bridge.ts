// express-fetch-bridge front door over cleartext HTTP/2 (h2c): bridge.listen({ http2: true }).
import type { Server, IncomingMessage, ServerResponse } from 'node:http'
import { fetchBridge } from '../../src/index.js'
import { createHono } from '../app.js'
import { ready } from './listen.js'

const fallback = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(404, { 'content-length': 0 })
  res.end()
}
ready(fetchBridge(createHono(), { fallback }).listen({ port: 0, host: '127.0.0.1', http2: true }) as unknown as Server)
