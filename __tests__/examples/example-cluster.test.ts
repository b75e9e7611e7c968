import http from 'node:http'
import request from 'supertest'
import { createApp } from '../../examples/cluster/app.js'
import { runExample } from '../helpers/run-example.js'

/** One request on a fresh connection, so the primary hands each one to the next worker. */
function get(url: string): Promise<{ status: number; pid: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, pid: res.headers['x-worker-pid'] as string, body }))
      })
      .on('error', reject)
  })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs
  let alive = pids.filter(isAlive)
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    alive = alive.filter(isAlive)
  }
  return alive
}

describe('examples/cluster', () => {
  it('tells which process answered', async () => {
    const res = await request(createApp()).get('/whoami').expect(200)
    expect(res.body).toEqual({ pid: process.pid })
    expect(res.headers['x-worker-pid']).toBe(String(process.pid))
  })

  it('answers from several workers and shuts down cleanly on SIGTERM', async () => {
    const running = await runExample('examples/cluster/server.ts', { WORKERS: '2' }, 30000)
    const workerPids = new Set<number>()
    let primary: number
    try {
      primary = Number(/primary (\d+), 2 workers/.exec(running.output())?.[1])
      expect(primary).toBeGreaterThan(0)
      for (let i = 0; i < 12; i++) {
        const res = await get(running.url + '/whoami')
        expect(res.status).toBe(200)
        expect(JSON.parse(res.body)).toEqual({ pid: Number(res.pid) })
        workerPids.add(Number(res.pid))
      }
      expect(workerPids.size).toBe(2)
      expect(workerPids.has(primary)).toBe(false)
    } finally {
      const code = await running.stop()
      expect(code).toBe(0)
    }
    // No worker (nor the primary) is left behind.
    expect(await waitUntilGone([primary, ...workerPids], 5000)).toEqual([])
  }, 40000)
})
