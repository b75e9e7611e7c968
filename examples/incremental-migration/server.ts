import { listenOrExit } from '../listen.js'
import { createApp } from './app.js'

listenOrExit(createApp(), Number(process.env.PORT ?? 3000), (url) => [
  `incremental-migration example listening on ${url}`,
  `  moved to Hono: ${url}/users   still Express: ${url}/orders`,
])
