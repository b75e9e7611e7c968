import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, migrationReport } from '../../src/index.js'
import { listen, request } from '../helpers/transport.js'
import { recordedTrial } from './trial.js'

describe('the migration report shows the evidence of a shadow trial', () => {
  it('per route: samples, match rate, noise, unexplained differences, canary, and the cut-over verdict', async () => {
    const { trial, until } = recordedTrial({
      routes: [{ route: '/ok' }, { route: '/off' }, { route: '/quiet' }],
      readyAfter: 3,
      noise: { first: 1, gapMs: 0 },
    })
    let n = 0
    const hono = new Hono()
    hono.get('/ok', (c) => c.json({ a: 1, at: ++n }))
    hono.get('/off', (c) => c.json({ a: 2 }))
    hono.get('/quiet', (c) => c.json({}))
    const app = express()
    app.use(fetchBridge(hono, { shadow: trial }))
    app.get('/ok', (_req, res) => res.json({ a: 1, at: 0 }))
    app.get('/off', (_req, res) => res.json({ a: 1 }))
    app.get('/quiet', (_req, res) => res.json({}))
    const server = await listen(app)
    try {
      for (let i = 0; i < 2; i++) await request(server.url + '/ok')
      await request(server.url + '/off')
      await until(3)
      let report = migrationReport(app, hono)
      expect(report.shadow.map((r) => [r.method, r.route, r.samples, r.verdict])).toEqual([
        ['GET', '/off', 1, 'mismatch'],
        ['GET', '/ok', 2, 'collecting'],
        ['GET', '/quiet', 0, 'collecting'],
      ])
      await request(server.url + '/ok')
      await until(4)
      report = migrationReport(app, hono)
      expect(report.shadow[1]).toMatchObject({ route: '/ok', samples: 3, matched: 3, verdict: 'ready', noiseFields: ['$.at'] })
      const text = report.format()
      expect(text).toMatch(/^Shadow runs and canary \(this process\)$/m)
      expect(text).toMatch(/^ {2}mismatch +GET +\/off +1 +0\.0% +- +[\d.]+\/[\d.]+ ms +[\d.]+\/[\d.]+ ms +differs: \$\.a \(1\)$/m)
      expect(text).toMatch(/^ {2}ready +GET +\/ok +3 +100\.0% .*noise: \$\.at$/m)
      expect(JSON.parse(JSON.stringify(report)).shadow).toHaveLength(3)
    } finally {
      await server.close()
    }
  })
})
