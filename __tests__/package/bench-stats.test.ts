// The benchmark's pure parts (bench/stats.ts): the figures it publishes are only as right as these.
import { cpuMsPerGiB, median, megabytesPerSecond, pairedCpuRatio, parseWrk, percentile, procStatTicks } from '../../bench/stats.js'

describe('bench statistics', () => {
  it('takes the median of odd and even counts, ignoring NaN', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([NaN, 5])).toBe(5)
    expect(median([])).toBeNaN()
  })

  it('pairs rounds by index: reference µs/req ÷ mode µs/req, median over rounds', () => {
    // Per round: 20/10 = 2, 30/20 = 1.5, 10/40 = 0.25 → median 1.5 (the mean of the ratios would be 1.25).
    expect(pairedCpuRatio([10, 20, 40], [20, 30, 10])).toBe(1.5)
    expect(() => pairedCpuRatio([1, 2], [1])).toThrow(/rounds/)
  })

  it('reads utime + stime from /proc/<pid>/stat even when the name holds spaces and parentheses', () => {
    const stat = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 11 0 999 1 2'
    expect(procStatTicks(stat)).toBe(1234 + 567)
    expect(() => procStatTicks('garbage')).toThrow(/parse/)
  })

  it('parses wrk --latency output, converting the p99 unit to ms', () => {
    const out = [
      'Running 3s test @ http://127.0.0.1:1234/',
      '  Latency Distribution',
      '     50%    1.10ms',
      '     99%  850.00us',
      '  30000 requests in 3.00s, 4.00MB read',
      '  Socket errors: connect 0, read 1, write 0, timeout 2',
      '  Non-2xx or 3xx responses: 3',
      'Requests/sec:  10000.50',
    ].join('\n')
    expect(parseWrk(out)).toEqual({ requests: 30000, rps: 10000.5, p99: 0.85, p50: 1.1, non2xx: 3, socketErrors: 1, timeouts: 2 })
    expect(parseWrk(out.replace('850.00us', '1.50s')).p99).toBe(1500)
    expect(() => parseWrk('wrk: connection refused')).toThrow(/cannot parse/)
  })

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i)
    expect(percentile(values, 99)).toBe(99)
    expect(percentile(values, 50)).toBe(50)
    expect(percentile([7], 99)).toBe(7)
  })

  it('turns CPU per request into CPU per GiB of body, and req/s into MB/s', () => {
    // 8 MiB per request at 4,000 µs each: 128 requests per GiB, 512 ms per GiB.
    expect(cpuMsPerGiB(4000, 8 * 2 ** 20)).toBe(512)
    expect(cpuMsPerGiB(4000, 0)).toBeNaN()
    // 25 requests a second of 64 MiB: 1,677.7216 MB/s (10^6 bytes).
    expect(megabytesPerSecond(25, 64 * 2 ** 20)).toBeCloseTo(1677.7216, 6)
  })
})
