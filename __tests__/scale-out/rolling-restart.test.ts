import { login, runLoad } from '../../examples/scale-out/load-client.js'
import { onEachWorker, openHonoSocket, openSocketIo, type Client } from './clients.js'
import { describeWithRedis, eventually, onEveryWorker, request, startCluster, type Cluster } from './redis.js'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// Workers replaced one at a time (SIGHUP to the primary) under keep-alive load: no request fails, none
// is retried, no session is lost; WebSocket clients reconnect to the new workers and keep receiving.
// The example starts its own redis-server here (no REDIS_URL), and stops it on SIGTERM.
describeWithRedis('rolling restart under load', () => {
  let cluster: Cluster
  const clients: Array<Client<unknown>> = []
  afterAll(async () => {
    for (const client of clients) client.close()
    await cluster?.stop()
  })

  it('replaces both workers with zero failed requests, and the WebSocket clients follow', async () => {
    cluster = await startCluster({})
    const redisPid = Number(/own redis-server pid (\d+)/.exec(cluster.output())?.[1])
    expect(alive(redisPid)).toBe(true)
    const cookie = await login(cluster.url, 'carol')
    const before = new Set((await onEveryWorker([cluster.url + '/api/health'], undefined, 2)).map((res) => res.pid))
    expect(before.size).toBe(2)
    const hono = await onEachWorker(() => openHonoSocket(cluster.url, cookie), 2)
    const legacy = await onEachWorker(() => openSocketIo(cluster.url), 2)
    clients.push(...hono, ...legacy)

    const restarted = eventually(() => /rolling restart done/.exec(cluster.output())?.[0], 30_000, 'the rolling restart')
    const load = runLoad({ url: cluster.url, cookie, user: 'carol', connections: 8 }, restarted)
    process.kill(cluster.primary, 'SIGHUP')
    const result = await load

    expect(result.failures).toEqual({})
    expect(result.failed).toBe(0)
    expect(result.sessionLost).toBe(0)
    expect(result.ok).toBe(result.requests)
    // The draining workers told their keep-alive clients to go elsewhere, and new workers answered.
    expect(result.connectionClose).toBeGreaterThan(0)
    const answeredBy = Object.keys(result.byPid).map(Number)
    expect(answeredBy.filter((pid) => !before.has(pid)).length).toBeGreaterThan(0)

    const after = new Set((await onEveryWorker([cluster.url + '/api/health'], undefined, 2)).map((res) => res.pid))
    expect(after.size).toBe(2)
    for (const pid of before) expect(after.has(pid)).toBe(false)
    for (const pid of before) expect(alive(pid)).toBe(false)

    // Every client lost its worker, reconnected to a new one, and receives what is published now.
    for (const client of [...hono, ...legacy]) {
      await eventually(() => (after.has(client.pid() ?? -1) ? true : undefined), 10_000, 'a reconnection to a new worker')
      // Twice if it first reconnected to the worker that was replaced next.
      expect(client.connects()).toBeGreaterThanOrEqual(2)
    }
    const sent = await request(cluster.url + '/api/broadcast', { method: 'POST', body: { text: 'after restart' } })
    for (const client of [...hono, ...legacy]) {
      await expect(client.next((m) => (m as { text?: string }).text === 'after restart')).resolves.toMatchObject({ pid: sent.pid })
    }

    for (const client of clients) client.close()
    expect(await cluster.stop()).toBe(0)
    await eventually(() => (alive(redisPid) ? undefined : true), 5000, 'the example to stop its redis-server')
  }, 60_000)
})
