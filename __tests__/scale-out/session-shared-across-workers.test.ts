import { describeWithRedis, login, MODES, onEveryWorker, request, useClusters, useRedis } from './redis.js'

// One connect-redis store behind the Express routes and the Hono routes of every worker, in both
// modes: Express's session middleware before the bridge, or expressMiddleware(session) in front-door Hono.
describeWithRedis('sessions shared across workers and sides', () => {
  const redis = useRedis()
  const clusters = useClusters(redis)

  describe.each(MODES)('%s mode', (mode) => {
    const url = () => clusters[MODES.indexOf(mode)]!.url
    const sides = () => [url() + '/api/me', url() + '/legacy/me']

    it.each([
      ['Hono', '/api/logout'],
      ['Express', '/logout'],
    ])('a login on one worker is seen by both sides on every worker; a logout through %s ends it everywhere', async (_side, logoutPath) => {
      const { cookie, pid: loggedInOn } = await login(url(), 'alice')

      const seen = await onEveryWorker(sides(), cookie, 2)
      for (const res of seen) {
        expect({ path: res.path, status: res.status }).toEqual({ path: res.path, status: 200 })
        expect(res.json()).toMatchObject({ user: 'alice', servedBy: res.path === '/api/me' ? 'hono' : 'express' })
      }
      const pids = new Set(seen.map((res) => res.pid))
      expect(pids.size).toBe(2)
      // Both sides answered on a worker other than the one the login went to.
      const elsewhere = seen.filter((res) => res.pid !== loggedInOn).map((res) => res.path)
      expect(new Set(elsewhere)).toEqual(new Set(['/api/me', '/legacy/me']))

      const out = await request(url() + logoutPath, { method: 'POST', cookie })
      expect(out.status).toBe(204)
      const after = await onEveryWorker(sides(), cookie, 2)
      expect(new Set(after.map((res) => res.pid)).size).toBe(2)
      for (const res of after) expect({ path: res.path, status: res.status }).toEqual({ path: res.path, status: 401 })
    })
  })
})
