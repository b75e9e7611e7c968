import http from 'node:http'
import { createApp, createTrial } from '../../examples/shadow/app.js'
import { listen, request, waitFor } from '../helpers/transport.js'
import { useExample } from '../helpers/run-example.js'

describe('examples/shadow', () => {
  it('reports the moved route’s one differing field as a mismatch and its timestamp as noise', async () => {
    const lines: string[] = []
    const trial = createTrial((line) => lines.push(line))
    const server = await listen(createApp(trial))
    try {
      for (let i = 1; i <= 6; i++) {
        const reply = await request(`${server.url}/products/${i}`)
        // Express still answers: the price is a number.
        expect(JSON.parse(reply.body.toString())).toMatchObject({ id: i, price: 10 })
      }
      expect(await waitFor(() => lines.length === 6, 5000)).toBe(true)
      expect(lines[0]).toMatch(/^shadow: GET \/products\/:id mismatch: \$\.price: 10 vs "10"( \(1 noise field\))?$/)
      const row = trial.stats().find((r) => r.route === '/products/:id')!
      expect(row).toMatchObject({ samples: 6, mismatched: 6, verdict: 'mismatch', noiseFields: ['$.generatedAt'] })
      // The timestamp differs whenever the two answers were made in different milliseconds: noise each time.
      const byField = Object.fromEntries(row.differences.map((d) => [d.field, d]))
      expect(byField['$.price']).toEqual({ field: '$.price', count: 6, noise: false })
      expect(byField['$.generatedAt']).toMatchObject({ noise: true })
      expect(Object.keys(byField).sort()).toEqual(['$.generatedAt', '$.price'])
    } finally {
      await server.close()
    }
  })

  it('answers 10% of the catalog’s users from Hono, the same side for a user every time', async () => {
    const trial = createTrial(() => {})
    const server = await listen(createApp(trial))
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    try {
      const sides = async () => {
        const out: string[] = []
        for (let i = 0; i < 1000; i += 10) {
          const batch = Array.from({ length: 10 }, (_, j) => request(`${server.url}/catalog`, { agent, headers: { 'x-user-id': `u${i + j}` } }))
          for (const reply of await Promise.all(batch)) out.push(JSON.parse(reply.body.toString()).servedBy)
        }
        return out
      }
      const first = await sides()
      expect(await sides()).toEqual(first)
      const hono = first.filter((s) => s === 'hono').length
      // Binomial(1000, 0.1): mean 100, standard deviation 9.5.
      expect(Math.abs(hono - 100)).toBeLessThan(38)
      // The Express-answered rest is shadowed and matches (servedBy is ignored for this route).
      expect(await waitFor(() => (trial.stats()[0]?.samples ?? 0) >= 2000 - 2 * hono - 16, 10000)).toBe(true)
      const row = trial.stats().find((r) => r.route === '/catalog')!
      expect(row.canary).toEqual({ hono: 2 * hono, express: 2000 - 2 * hono, fallbacks: 0 })
      expect(row.mismatched).toBe(0)
    } finally {
      agent.destroy()
      await server.close()
    }
  }, 60000)

  describe('npm run example:shadow', () => {
    const example = useExample('examples/shadow/server.ts')

    it('serves, logs the mismatch, and exports the aggregates as Prometheus metrics and in the migration report', async () => {
      for (let i = 0; i < 3; i++) await (await fetch(example().url + '/products/1')).text()
      await (await fetch(example().url + '/catalog', { headers: { 'x-user-id': '7' } })).text()
      expect(await waitFor(() => example().output().includes('shadow: GET /products/:id mismatch: $.price: 10 vs "10"'), 5000)).toBe(true)
      // The last comparisons may land just after the log line: poll the metrics until all three are in.
      let metrics = ''
      for (let i = 0; i < 100 && !metrics.includes('shadow_samples{method="GET",route="/products/:id"} 3'); i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50))
        metrics = await (await fetch(example().url + '/metrics')).text()
      }
      expect(metrics).toContain('shadow_samples{method="GET",route="/products/:id"} 3')
      expect(metrics).toContain('shadow_match_ratio{method="GET",route="/products/:id"} 0')
      expect(metrics).toContain('shadow_noise_fields{method="GET",route="/products/:id"} 1')
      expect(metrics).toMatch(/canary_(hono|express)_requests\{method="GET",route="\/catalog"\} 1/)
      const report = await (await fetch(example().url + '/migration')).text()
      expect(report).toMatch(/^ {2}mismatch +GET +\/products\/:id +3 +0\.0% .*differs: \$\.price \(3\); noise: \$\.generatedAt$/m)
    })
  })
})
