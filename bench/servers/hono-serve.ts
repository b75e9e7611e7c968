// @hono/node-server's own server.
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { createHono } from '../app.js'
import { ready } from './listen.js'

ready(serve({ fetch: createHono().fetch, port: 0, hostname: '127.0.0.1' }) as Server)
