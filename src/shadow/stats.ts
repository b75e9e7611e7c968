/**
 * Per-route aggregates of a trial, bounded whatever the traffic: counters, the last durations of each
 * side (for percentiles), at most {@link MAX_FIELDS} noise and difference fields per route.
 */
import type { DurationPercentiles, ShadowRouteStats, ShadowSkipReason } from '../bridge/shadow-hook.js'
import { isNoise } from './compare.js'
import type { ShadowDiff } from './shadow-result.js'

/** Durations kept per side and route: percentiles are over the most recent ones. */
const WINDOW = 1024
/** Distinct fields kept per route (noise, and differences); past it they are counted as `(other fields)`. */
const MAX_FIELDS = 100

class Window {
  readonly values = new Float64Array(WINDOW)
  count = 0

  add(value: number): void {
    this.values[this.count % WINDOW] = value
    this.count++
  }

  percentiles(): DurationPercentiles {
    const n = Math.min(this.count, WINDOW)
    if (n === 0) return { p50: 0, p99: 0 }
    const sorted = this.values.slice(0, n).sort()
    const at = (q: number) => Math.round(sorted[Math.min(n - 1, Math.ceil(q * n) - 1)] * 1000) / 1000
    return { p50: at(0.5), p99: at(0.99) }
  }
}

export class RouteStats {
  samples = 0
  matched = 0
  mismatched = 0
  readonly skipped: Partial<Record<ShadowSkipReason, number>> = {}
  readonly noise = new Set<string>()
  readonly differences = new Map<string, number>()
  readonly express = new Window()
  readonly hono = new Window()
  readonly canary = { hono: 0, express: 0, fallbacks: 0 }

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  skip(reason: ShadowSkipReason): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1
  }

  addNoise(field: string): void {
    if (this.noise.size < MAX_FIELDS) this.noise.add(field)
  }

  record(mismatch: boolean, diffs: ShadowDiff[], express: number, hono: number): void {
    this.samples++
    if (mismatch) this.mismatched++
    else this.matched++
    this.express.add(express)
    this.hono.add(hono)
    for (const d of diffs) {
      const field = this.differences.has(d.field) || this.differences.size < MAX_FIELDS ? d.field : '(other fields)'
      this.differences.set(field, (this.differences.get(field) ?? 0) + 1)
    }
  }

  snapshot(readyAfter: number): ShadowRouteStats {
    const differences = [...this.differences]
      .map(([field, count]) => ({ field, count, noise: isNoise(field, this.noise) }))
      .sort((a, b) => b.count - a.count || a.field.localeCompare(b.field))
    const unexplained = differences.some((d) => !d.noise)
    return {
      method: this.method,
      route: this.route,
      samples: this.samples,
      matched: this.matched,
      mismatched: this.mismatched,
      matchRate: this.samples === 0 ? 0 : this.matched / this.samples,
      skipped: { ...this.skipped },
      noiseFields: [...this.noise].sort(),
      differences,
      express: this.express.percentiles(),
      hono: this.hono.percentiles(),
      canary: { ...this.canary },
      verdict: unexplained ? 'mismatch' : this.matched >= readyAfter ? 'ready' : 'collecting',
    }
  }
}

export class TrialStats {
  readonly routes = new Map<string, RouteStats>()

  route(method: string, route: string): RouteStats {
    const key = `${method} ${route}`
    let stats = this.routes.get(key)
    if (stats === undefined) this.routes.set(key, (stats = new RouteStats(method, route)))
    return stats
  }
}
