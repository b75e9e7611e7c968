import compression from 'compression'
import express from 'express'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { fetchBridge } from 'express-fetch-bridge'

export interface StreamingOptions {
  /** How many events `/events` sends before it closes. */
  count?: number
  /** Pause between two events, in milliseconds. */
  intervalMs?: number
}

const page = `<!doctype html>
<meta charset="utf-8"><title>SSE through Express</title>
<ol id="log"></ol>
<script>
  const source = new EventSource('/events')
  source.addEventListener('tick', (e) => {
    const li = document.createElement('li')
    li.textContent = e.data
    document.getElementById('log').append(li)
  })
  source.addEventListener('end', () => source.close())
</script>`

/** Hono app with a Server-Sent Events endpoint. */
export function createHono({ count = 10, intervalMs = 1000 }: StreamingOptions = {}) {
  const hono = new Hono()
  hono.get('/', (c) => c.html(page))
  hono.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      for (let n = 1; n <= count; n++) {
        // sentAt lets a client see how long each event took to arrive.
        await stream.writeSSE({ id: String(n), event: 'tick', data: JSON.stringify({ n, sentAt: Date.now() }) })
        if (n < count) await stream.sleep(intervalMs)
        if (stream.aborted) return
      }
      await stream.writeSSE({ event: 'end', data: 'bye' })
    }),
  )
  return hono
}

/**
 * Express with gzip for everything. compression buffers its output until it is flushed; the bridge
 * calls `res.flush()` after each chunk, so every event leaves the server as soon as it is written.
 */
export function createApp(options?: StreamingOptions) {
  const app = express()
  app.use(compression())
  app.use(fetchBridge(createHono(options)))
  return app
}
