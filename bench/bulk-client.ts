/**
 * The client of the bulk-body routes (bench/wrk.ts runs it pinned to CPU 1 in place of wrk): whole
 * requests one after another over one keep-alive connection, each upload sending `upload` bytes,
 * each answer read to its end, and stops after `requests` of them, so that the server's CPU time
 * covers whole transfers only (a run cut by time, as wrk's, would end in the middle of one).
 *
 *   bulk-client <port> <path> <upload bytes, 0 for GET> <requests>  → {"requests","seconds","p50","p99","non2xx"}
 */
import http from 'node:http'
import { percentile } from './stats.js'

const [port, target, uploadArg, requestsArg] = process.argv.slice(2)
const upload = Number(uploadArg)
const body = upload > 0 ? Buffer.alloc(upload, 'u') : undefined
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const headers: http.OutgoingHttpHeaders = body ? { 'content-type': 'application/octet-stream', 'content-length': body.length } : {}

function one(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port: Number(port), path: target, method: body ? 'POST' : 'GET', headers }, (res) => {
      res.on('data', () => {})
      res.once('end', () => resolve(res.statusCode ?? 0))
      res.once('error', reject)
    })
    req.once('error', reject)
    req.end(body)
  })
}

async function main(): Promise<void> {
  const requests = Number(requestsArg)
  const latencies: number[] = []
  let non2xx = 0
  const start = performance.now()
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now()
    const status = await one()
    latencies.push(performance.now() - t0)
    if (status < 200 || status >= 400) non2xx++
  }
  const seconds = (performance.now() - start) / 1000
  agent.destroy()
  process.stdout.write(JSON.stringify({ requests, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx }) + '\n')
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
