import WebSocket from 'ws'
import { onEachWorker, openHonoSocket, openSocketIo, type Client, type IoMessage, type WsMessage } from './clients.js'
import { describeWithRedis, login, request, useClusters, useRedis } from './redis.js'

// A message published on one worker reaches the clients of every worker: Hono upgradeWebSocket
// clients through Redis pub/sub, socket.io clients through @socket.io/redis-adapter.
describeWithRedis('WebSocket broadcast across workers', () => {
  const redis = useRedis()
  const clusters = useClusters(redis)
  const clients: Array<Client<unknown>> = []
  afterAll(() => {
    for (const client of clients) client.close()
  })

  it.each([
    ['middleware', 0],
    ['front-door', 1],
  ])('%s mode: an HTTP broadcast and a chat line reach the Hono and socket.io clients of both workers', async (_mode, index) => {
    const url = clusters[index]!.url
    const { cookie } = await login(url, 'alice')
    const hono = await onEachWorker(() => openHonoSocket(url, cookie), 2)
    const legacy = await onEachWorker(() => openSocketIo(url), 2)
    clients.push(...hono, ...legacy)
    expect(hono.length).toBe(2)
    expect(legacy.length).toBe(2)

    const sent = await request(url + '/api/broadcast', { method: 'POST', body: { text: `news ${index}` } })
    expect(sent.status).toBe(200)
    for (const client of hono) {
      const message = await client.next((m: WsMessage) => m.text === `news ${index}`)
      expect(message).toEqual({ from: 'http', text: `news ${index}`, pid: sent.pid })
    }
    for (const client of legacy) {
      const message = await client.next((m: IoMessage) => m.text === `news ${index}`)
      expect(message).toEqual({ from: 'http', text: `news ${index}`, pid: sent.pid })
    }
    // Among the receivers, one is on the worker that did not publish.
    expect(hono.some((client) => client.pid() !== sent.pid)).toBe(true)
    expect(legacy.some((client) => client.pid() !== sent.pid)).toBe(true)

    // A chat line sent on one worker's socket reaches the other worker's.
    hono[0]!.send(`hello from ${hono[0]!.pid()}`)
    const heard = await hono[1]!.next((m) => m.text === `hello from ${hono[0]!.pid()}`)
    expect(heard).toEqual({ from: 'alice', text: `hello from ${hono[0]!.pid()}`, pid: hono[0]!.pid() })
  })

  it('refuses an upgrade without a session (401), on the Hono route', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(clusters[0]!.url.replace(/^http/, 'ws') + '/api/ws')
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => reject(new Error('upgrade accepted without a session')))
      ws.on('error', () => {})
    })
    expect(status).toBe(401)
  })
})
