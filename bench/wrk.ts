/** One timed wrk run against a bench server, with the server's CPU time per request from /proc. */
import { spawn } from 'node:child_process'
import path from 'node:path'
import type { RouteInfo } from './modes.js'
import { cpuMicros, pinned, type RunningServer } from './server-process.js'
import { parseWrk } from './stats.js'

export interface Sample {
  rps: number
  /** p99 latency in milliseconds. */
  p99: number
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

export async function wrk(s: RunningServer, route: RouteInfo, seconds: number, connections: number): Promise<Sample> {
  const args = ['-t1', `-c${route.connections ?? connections}`, `-d${seconds}s`, '--latency']
  if (route.upload !== undefined) args.push('-s', path.join(__dirname, 'body.lua'))
  else if (route.method === 'POST') args.push('-s', path.join(__dirname, 'post.lua'))
  args.push(`http://127.0.0.1:${s.port}${route.path}`)
  if (route.upload !== undefined) args.push(String(route.upload))
  const before = cpuMicros(s.pid)
  const out = await wrkOutput(args)
  const used = cpuMicros(s.pid) - before
  const where = `${s.mode} ${route.method} ${route.path}`
  const w = parseWrk(out)
  if (w.non2xx) throw new Error(`${where}: ${w.non2xx} responses were not 2xx/3xx`)
  if (w.socketErrors) throw new Error(`${where}: socket errors:\n${out}`)
  if (w.requests === 0) throw new Error(`${where}: no request completed in ${seconds} s`)
  return { rps: w.rps, p99: w.p99, requests: w.requests, timeouts: w.timeouts, cpuUs: used / w.requests }
}
