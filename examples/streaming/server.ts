import { listenOrExit } from '../listen.js'
import { createApp } from './app.js'

const app = createApp({
  count: Number(process.env.EVENTS ?? 10),
  intervalMs: Number(process.env.INTERVAL_MS ?? 1000),
})
listenOrExit(app, Number(process.env.PORT ?? 3000), (url) => [
  `streaming example listening on ${url}`,
  `  open it in a browser, or: curl -N --compressed ${url}/events`,
])
