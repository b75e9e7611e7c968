/**
 * The shadow and canary evidence of the report: per route under a trial (the bridges' `shadow`
 * option), its aggregates in this process and the cut-over verdict.
 */
import type { ShadowHook, ShadowRouteStats } from '../bridge/shadow-hook.js'

function empty(method: string, route: string): ShadowRouteStats {
  const none = { p50: 0, p99: 0 }
  return {
    method,
    route,
    samples: 0,
    matched: 0,
    mismatched: 0,
    matchRate: 0,
    skipped: {},
    noiseFields: [],
    differences: [],
    express: none,
    hono: none,
    canary: { hono: 0, express: 0, fallbacks: 0 },
    verdict: 'collecting',
  }
}

/** Every route a trial has seen, and the Hono routes it names that have had no request yet. */
export function shadowEvidence(
  hooks: ShadowHook[],
  honoRoutes: Array<{ method: string; path: string }>,
): ShadowRouteStats[] {
  const rows = new Map<string, ShadowRouteStats>()
  for (const hook of new Set(hooks)) for (const row of hook.stats()) rows.set(`${row.method} ${row.route}`, row)
  for (const { method, path } of honoRoutes) {
    const key = `${method} ${path}`
    if (!rows.has(key) && hooks.some((hook) => hook.covers(method, path))) rows.set(key, empty(method, path))
  }
  return [...rows.values()].sort((a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method))
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1))

function note(row: ShadowRouteStats): string {
  const unexplained = row.differences.filter((d) => !d.noise).map((d) => `${d.field} (${d.count})`)
  const parts: string[] = []
  if (unexplained.length > 0)
    parts.push(`differs: ${unexplained.slice(0, 3).join(', ')}${unexplained.length > 3 ? ', …' : ''}`)
  if (row.noiseFields.length > 0)
    parts.push(`noise: ${row.noiseFields.slice(0, 3).join(', ')}${row.noiseFields.length > 3 ? ', …' : ''}`)
  const skipped = Object.entries(row.skipped)
    .filter(([reason]) => reason !== 'sampled-out')
    .map(([reason, n]) => `${reason} ${n}`)
  if (skipped.length > 0) parts.push(`skipped: ${skipped.join(', ')}`)
  return parts.join('; ') || '-'
}

/** The evidence as rows of the report's table (header first). */
export function evidenceRows(rows: ShadowRouteStats[]): string[][] {
  return [
    ['VERDICT', 'METHOD', 'ROUTE', 'SAMPLES', 'MATCH', 'CANARY', 'P50/P99 EXPRESS', 'P50/P99 HONO', 'NOTE'],
    ...rows.map((r) => [
      r.verdict,
      r.method,
      r.route,
      String(r.samples),
      r.samples === 0 ? '-' : `${(r.matchRate * 100).toFixed(1)}%`,
      r.canary.hono + r.canary.express === 0
        ? '-'
        : `${r.canary.hono}/${r.canary.hono + r.canary.express} (${r.canary.fallbacks} fallbacks)`,
      r.samples === 0 ? '-' : `${ms(r.express.p50)}/${ms(r.express.p99)} ms`,
      r.samples === 0 ? '-' : `${ms(r.hono.p50)}/${ms(r.hono.p99)} ms`,
      note(r),
    ]),
  ]
}
