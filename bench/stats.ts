/** Pure parts of the harness (checked by __tests__/package/bench-stats.test.ts): no I/O here. */

export function median(values: number[]): number {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/**
 * CPU efficiency of `mode` against `reference`: per round, reference µs/req ÷ mode µs/req (≥ 1 means
 * the mode is cheaper), then the median over rounds. Rounds are paired by index (same moment).
 */
export function pairedCpuRatio(mode: number[], reference: number[]): number {
  if (mode.length !== reference.length) throw new Error('paired ratio: rounds differ in number')
  return median(mode.map((m, k) => reference[k] / m))
}

/** utime + stime, in clock ticks, from the text of /proc/<pid>/stat (the name may hold spaces or ')'). */
export function procStatTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 14 and 15 of proc(5); after the name, field 3 (state) is index 0.
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`cannot parse /proc stat: ${stat.slice(0, 80)}`)
  return utime + stime
}

export interface WrkSummary {
  requests: number
  rps: number
  /** p99 latency in milliseconds. */
  p99: number
  /** p50 latency in milliseconds. */
  p50: number
  non2xx: number
  /** connect + read + write socket errors (timeouts counted apart). */
  socketErrors: number
  timeouts: number
}

function toMs(value: string, unit: string): number {
  const v = Number(value)
  return unit === 'us' ? v / 1000 : unit === 's' ? v * 1000 : unit === 'm' ? v * 60_000 : v
}

/** The figures of `wrk --latency` output. */
export function parseWrk(out: string): WrkSummary {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out)
  const p50 = /^\s*50%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out)
  const requests = /(\d+) requests in/.exec(out)
  if (!rps || !p99 || !requests) throw new Error(`cannot parse wrk output:\n${out}`)
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    requests: Number(requests[1]),
    rps: Number(rps[1]),
    p99: toMs(p99[1], p99[2]),
    p50: p50 ? toMs(p50[1], p50[2]) : NaN,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
    timeouts: errors ? Number(errors[4]) : 0,
  }
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
}

/** CPU milliseconds per GiB of body moved, from CPU µs per request and body bytes per request. */
export function cpuMsPerGiB(cpuUsPerRequest: number, bytesPerRequest: number): number {
  if (!(bytesPerRequest > 0)) return NaN
  return (cpuUsPerRequest / 1000) * (2 ** 30 / bytesPerRequest)
}

/** Megabytes (10^6 bytes) per second of body moved. */
export function megabytesPerSecond(requestsPerSecond: number, bytesPerRequest: number): number {
  return (requestsPerSecond * bytesPerRequest) / 1e6
}
