/** One timed wrk run against a bench server, with the server's CPU time per request from /proc. */
import { execFile, spawn } from 'node:child_process'
import path from 'node:path'
import { bodyBytes, bulkRequests, type RouteInfo } from './modes.js'
import { serverFile } from './build.js'
import { cpuMicros, pinned, type RunningServer } from './server-process.js'
import { parseWrk } from './stats.js'

export interface Sample {
  rps: number
  /** p99 latency in milliseconds. */
  p99: number
  /** p50 latency in milliseconds. */
  p50: number
  requests: number
  timeouts: number
  /** Server CPU time (user + system, all threads) per completed request, in microseconds. */
  cpuUs: number
}

function wrkOutput(args: string[]): Promise<string> {
  const [cmd, cmdArgs] = pinned(1, 'wrk', args)
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}:\n${out}`))))
  })
}

/**
 * Bulk-body routes: bench/bulk-client.ts (compiled by bench/build.ts, pinned to CPU 1) moves whole
 * requests over one connection, by count ({@link bulkRequests}; `warmup`: the warm-up's share).
 */
async function bulk(s: RunningServer, route: RouteInfo, warmup: boolean): Promise<Sample> {
  const [cmd, args] = pinned(1, process.execPath, [serverFile('bulk-client'), String(s.port), route.path, String(route.upload ?? 0), String(bulkRequests(route, warmup))])
  const before = cpuMicros(s.pid)
  const out = await new Promise<string>((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${s.mode} ${route.path}: ${err.message}\n${stderr}`)) : resolve(stdout)))
  })
  const used = cpuMicros(s.pid) - before
  const r = JSON.parse(out) as { requests: number; seconds: number; p50: number; p99: number; non2xx: number }
  if (r.non2xx) throw new Error(`${s.mode} ${route.method} ${route.path}: ${r.non2xx} responses were not 2xx/3xx`)
  return { rps: r.requests / r.seconds, p50: r.p50, p99: r.p99, requests: r.requests, timeouts: 0, cpuUs: used / r.requests }
}

/** A timed run: `seconds` of wrk over `connections`; a bulk-body route is driven by count instead (see {@link bulk}). */
export async function wrk(s: RunningServer, route: RouteInfo, seconds: number, connections: number, warmup = false): Promise<Sample> {
  if (bodyBytes(route) > 0) return bulk(s, route, warmup)
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency']
  if (route.method === 'POST') args.push('-s', path.join(__dirname, 'post.lua'))
  args.push(`http://127.0.0.1:${s.port}${route.path}`)
  const before = cpuMicros(s.pid)
  const out = await wrkOutput(args)
  const used = cpuMicros(s.pid) - before
  const where = `${s.mode} ${route.method} ${route.path}`
  const w = parseWrk(out)
  if (w.non2xx) throw new Error(`${where}: ${w.non2xx} responses were not 2xx/3xx`)
  if (w.socketErrors) throw new Error(`${where}: socket errors:\n${out}`)
  return { rps: w.rps, p99: w.p99, p50: w.p50, requests: w.requests, timeouts: w.timeouts, cpuUs: used / w.requests }
}
