// @hono/node-server's serve() over cleartext HTTP/2 (h2c), as its README shows for http2.
import type { Server } from 'node:http'
import { createServer } from 'node:http2'
import { serve } from '@hono/node-server'
import { createHono } from '../app.js'
import { ready } from './listen.js'

ready(serve({ fetch: createHono().fetch, port: 0, hostname: '127.0.0.1', createServer }) as unknown as Server)
