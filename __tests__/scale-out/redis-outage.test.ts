import { describeWithRedis, eventually, login, onEveryWorker, request, useClusters, useRedis } from './redis.js'

// Redis stopped mid-run, then started again on the same port: what needs it gets a clear 503 (no
// request hangs: the client has no offline queue), nothing crashes, and everything recovers — the
// session too, as this Redis persists it (appendonly, as a production Redis would).
describeWithRedis('Redis unavailable mid-run', () => {
  const redis = useRedis({ persist: true })
  const clusters = useClusters(redis)
  const cookies: string[] = []
  beforeAll(async () => {
    for (const cluster of clusters) cookies.push((await login(cluster.url, 'dave')).cookie)
  }, 60_000)

  it('answers 503 in both modes while it is down, keeps the same workers, and recovers when it is back', async () => {
    const workersBefore = await Promise.all(clusters.map(async (c) => new Set((await onEveryWorker([c.url + '/api/health'], undefined, 2)).map((r) => r.pid))))
    await redis().stop()

    for (const [i, cluster] of clusters.entries()) {
      const cookie = cookies[i]!
      // Both sides, on both workers, each answered (not hung) with the store's error mapped to 503.
      const down = await onEveryWorker([cluster.url + '/api/me', cluster.url + '/legacy/me'], cookie, 2)
      expect(new Set(down.map((r) => r.pid))).toEqual(workersBefore[i])
      for (const res of down) {
        expect({ path: res.path, status: res.status, retryAfter: res.headers['retry-after'] }).toEqual({ path: res.path, status: 503, retryAfter: '1' })
        expect(res.json()).toEqual({ error: 'session store unavailable, try again shortly' })
      }
      expect((await request(cluster.url + '/login', { method: 'POST', body: { user: 'erin' } })).status).toBe(503)
      expect((await request(cluster.url + '/api/quota')).status).toBe(503) // the rate-limit store
      expect((await request(cluster.url + '/legacy/quota')).status).toBe(503)
      // What does not need Redis is still served.
      expect((await request(cluster.url + '/api/health')).status).toBe(200)
    }

    await redis().restart()
    for (const [i, cluster] of clusters.entries()) {
      const cookie = cookies[i]!
      // The clients reconnect within half a second; poll until this cluster's both workers have.
      await eventually(async () => {
        const answers = await onEveryWorker([cluster.url + '/api/me', cluster.url + '/legacy/me'], cookie, 2)
        return answers.every((r) => r.status === 200) && answers.length === 4 ? answers : undefined
      }, 10_000, 'both workers to reach Redis again')
      const back = await onEveryWorker([cluster.url + '/api/me', cluster.url + '/legacy/me'], cookie, 2)
      for (const res of back) expect(res.json()).toMatchObject({ user: 'dave' })
      expect(new Set(back.map((r) => r.pid))).toEqual(workersBefore[i])
      expect((await request(cluster.url + '/api/quota')).status).toBe(200)
      expect((await request(cluster.url + '/legacy/quota')).status).toBe(200)
      expect((await request(cluster.url + '/login', { method: 'POST', body: { user: 'erin' } })).status).toBe(200)
      // No worker died and was replaced meanwhile.
      expect(cluster.output()).not.toMatch(/died|unhandled|uncaught/i)
    }
  }, 40_000)
})
