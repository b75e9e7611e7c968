import { describeWithRedis, request, useClusters, useRedis, type Answer } from './redis.js'

const LIMIT = 6

/** What the draft-8 `RateLimit` header says is left: `"6-in-1min"; r=5; t=60` → 5. */
const remaining = (res: Answer) => Number(/r=(\d+)/.exec(String(res.headers.ratelimit))?.[1])

// One rate-limit-redis counter per client, whichever worker and whichever side (Express route or Hono
// route) answers: one limit, not one per worker.
describeWithRedis('rate limit shared across workers and sides', () => {
  const redis = useRedis()
  const clusters = useClusters(redis, { RATE_LIMIT: String(LIMIT) })

  it.each([
    ['middleware', 0],
    ['front-door', 1],
  ])('%s mode: counts one client once across 2 workers and both sides', async (_mode, index) => {
    const url = clusters[index]!.url
    // Hono, Hono, Express, Express, …: with round-robin each side is answered by both workers.
    const paths = (n: number) => Array.from({ length: n }, (_, i) => (Math.floor(i / 2) % 2 === 0 ? '/api/quota' : '/legacy/quota'))
    const allowed: Answer[] = []
    for (const path of paths(LIMIT)) allowed.push(await request(url + path))
    expect(allowed.map((res) => res.status)).toEqual(Array(LIMIT).fill(200))
    // One counter: every request took the next number, whichever worker and side served it.
    expect(allowed.map(remaining)).toEqual([5, 4, 3, 2, 1, 0])
    expect(allowed.map((res) => res.json().servedBy)).toEqual(['hono', 'hono', 'express', 'express', 'hono', 'hono'])
    expect(new Set(allowed.map((res) => res.pid)).size).toBe(2)

    const refused: Answer[] = []
    for (const path of paths(4)) refused.push(await request(url + path))
    expect(refused.map((res) => res.status)).toEqual([429, 429, 429, 429])
    expect(new Set(refused.map((res) => res.pid)).size).toBe(2)
  })
})
