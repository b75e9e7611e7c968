import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp } from '../../examples/streaming/app.js'
import { useExample } from '../helpers/run-example.js'
import { readSseBlocks } from '../helpers/sse.js'

interface Received {
  encoding: string | undefined
  contentType: string | undefined
  events: { id?: string; event?: string; data: string; at: number }[]
}

/** GET an SSE stream with `Accept-Encoding: gzip`, decompressing as bytes arrive. */
function readEvents(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip', accept: 'text/event-stream' } }, (res) => {
      const encoding = res.headers['content-encoding']
      const events: Received['events'] = []
      const body = readSseBlocks(res, (block) => {
        const event: Received['events'][number] = { data: '', at: Date.now() }
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':')
          const field = line.slice(0, colon)
          const value = line.slice(colon + 1).trimStart()
          if (field === 'data') event.data += value
          else if (field === 'id') event.id = value
          else if (field === 'event') event.event = value
        }
        events.push(event)
      })
      body.on('end', () => resolve({ encoding, contentType: res.headers['content-type'], events }))
      body.on('error', reject)
    })
    req.on('error', reject)
  })
}

function expectStreamed(received: Received, count: number, intervalMs: number) {
  expect(received.encoding).toBe('gzip')
  expect(received.contentType).toMatch(/^text\/event-stream/)
  const ticks = received.events.filter((e) => e.event === 'tick')
  expect(ticks.map((e) => JSON.parse(e.data).n)).toEqual(Array.from({ length: count }, (_, i) => i + 1))
  expect(received.events.at(-1)).toMatchObject({ event: 'end', data: 'bye' })
  const first = ticks[0]
  const last = ticks[count - 1]
  const lastSentAt = JSON.parse(last.data).sentAt as number
  // Buffered output would deliver every event together, after the last one was sent.
  expect(first.at).toBeLessThan(lastSentAt)
  expect(last.at - first.at).toBeGreaterThanOrEqual((count - 1) * intervalMs * 0.8)
  // Each event arrives long before the next one is written (generous bound for a busy machine).
  for (const tick of ticks) expect(tick.at - JSON.parse(tick.data).sentAt).toBeLessThan(intervalMs)
}

describe('examples/streaming', () => {
  it('delivers each Server-Sent Event as it is sent, gzip-compressed', async () => {
    const server = createApp({ count: 3, intervalMs: 400 }).listen(0)
    try {
      await new Promise((resolve) => server.once('listening', resolve))
      const { port } = server.address() as AddressInfo
      expectStreamed(await readEvents(`http://localhost:${port}/events`), 3, 400)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('serves the demo page', async () => {
    const server = createApp().listen(0)
    try {
      await new Promise((resolve) => server.once('listening', resolve))
      const { port } = server.address() as AddressInfo
      const res = await fetch(`http://localhost:${port}/`)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toContain("new EventSource('/events')")
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  describe('npm run example:streaming', () => {
    const example = useExample('examples/streaming/server.ts', { EVENTS: '3', INTERVAL_MS: '400' })

    it('streams events from the spawned server', async () => {
      expectStreamed(await readEvents(example().url + '/events'), 3, 400)
    })
  })
})
