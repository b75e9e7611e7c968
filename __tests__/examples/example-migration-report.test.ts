import { readFileSync } from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { migrationReport } from '../../src/index.js'
import { createApp, createHono, createMetrics } from '../../examples/migration-report/app.js'
import { useExample } from '../helpers/run-example.js'

/** onDispatch runs when the response is done, which may be just after the client has read it. */
async function eventually(read: () => Promise<string>, expected: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = await read()
    if (text.includes(expected)) return text
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return read()
}

describe('examples/migration-report', () => {
  it('lists GET /users as moved but still reached in other case, the live POST /users and the partly moved paths', () => {
    const hono = createHono()
    const report = migrationReport(createApp(createMetrics(), hono), hono)
    const status = Object.fromEntries(report.express.map((r) => [`${r.method} ${r.path}`, r.status]))
    expect(status).toEqual({
      'GET /metrics': 'express',
      // Hono (strict: false) takes /users and /users/; Express still answers /USERS, /Users.
      'GET /users': 'partly-shadowed',
      'POST /users': 'express',
      'GET /users/:id': 'partly-shadowed',
      'GET /api/:version/orders': 'partly-shadowed',
    })
    expect(report.partlyMoved).toEqual([{ path: '/users', hono: ['GET'], express: ['POST'] }])
    const users = report.express.find((r) => r.method === 'GET' && r.path === '/users')!
    expect(users.samples.filter((s) => s.servedBy === 'express').map((s) => s.path)).toEqual(['/USERS', '/Users'])
  })

  it('counts requests per side and route in Prometheus metrics', async () => {
    const metrics = createMetrics()
    const app = createApp(metrics)
    await request(app).get('/users/1').expect(200, { id: 1, name: 'Ada' })
    await request(app).get('/users/ada').expect(200, { id: 'ada', legacy: true })
    await request(app).post('/users').expect(201)
    const text = await eventually(() => metrics.registry.metrics(), 'method="POST"')
    expect(text).toContain('bridge_requests_total{side="hono",method="GET",route="/users/:id{[0-9]+}",status="200"} 1')
    expect(text).toContain('bridge_requests_total{side="express",method="GET",route="",status="200"} 1')
    expect(text).toContain('bridge_requests_total{side="express",method="POST",route="",status="201"} 1')
    expect(text).toMatch(/bridge_request_duration_seconds_count\{side="hono"\} 1/)
  })

  describe('npm run example:migration-report', () => {
    const example = useExample('examples/migration-report/server.ts')

    it('prints the report, then serves and counts', async () => {
      expect(example().output()).toMatch(/^ {2}partly-shadowed +GET +\/users +GET \/users .*still reached by GET \/USERS/m)
      // The migration guide shows exactly what the example prints, from "Express routes" to the summary line.
      const readme = readFileSync(path.join(__dirname, '..', '..', 'docs', 'guide', 'migration.md'), 'utf8')
      const shown = /examples\/migration-report\) prints[^\n]*\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1]
      const printed = /^Express routes\n[\s\S]*?Hono-only[^\n]*$/m.exec(example().output())?.[0]
      expect(shown).toBe(printed)
      await (await fetch(example().url + '/users')).text()
      const expected = 'bridge_requests_total{side="hono",method="GET",route="/users",status="200"} 1'
      const metrics = await eventually(async () => (await fetch(example().url + '/metrics')).text(), expected)
      expect(metrics).toContain('bridge_requests_total{side="hono",method="GET",route="/users",status="200"} 1')
    })
  })
})
