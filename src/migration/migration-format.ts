/** The migration report as a plain-text table. */
import type { ExpressRouteEntry, HonoRouteEntry, MigrationReport, SampleResult } from './migration-report.js'
import { evidenceRows } from './migration-evidence.js'

function table(rows: string[][]): string {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)))
  return rows
    .map(
      (row) =>
        '  ' +
        row
          .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col])))
          .join('  ')
          .trimEnd(),
    )
    .join('\n')
}

const EXPRESS_NOTES: Record<ExpressRouteEntry['status'], string> = {
  shadowed: 'dead code: Hono answers first, safe to delete',
  'partly-shadowed': 'Hono answers some of its requests',
  express: 'still served by Express',
  'under-trial': 'under a shadow trial',
  unchecked: 'RegExp path: not checked',
}

const HONO_NOTES: Record<HonoRouteEntry['status'], string> = {
  moved: 'replaces an Express route',
  'hono-only': 'new in Hono',
  unreachable: 'an Express route before the bridge, or an earlier Hono route, answers all its requests first',
  'under-trial': 'under a shadow trial',
  unchecked: 'no sample path fits this pattern: not checked',
}

/**
 * What still reaches a partly shadowed route, and what would move it: Hono matches neither a trailing slash nor other
 * case.
 */
function stillReached(e: ExpressRouteEntry, expressRouting: boolean): string {
  const live = e.samples.filter((s) => s.servedBy === 'express' && s.answeredBy === `${s.method} ${e.path}`)
  if (live.length === 0) return ''
  const byHono = new Set(e.samples.filter((s) => s.servedBy === 'hono').map((s) => `${s.method} ${s.path}`))
  const advice = new Set<string>()
  for (const s of live) {
    if (s.path.length > 1 && s.path.endsWith('/') && byHono.has(`${s.method} ${s.path.slice(0, -1)}`)) {
      advice.add(expressRouting ? 'strict routing: keep this route' : 'expressRouting: true takes the trailing slash')
    } else if ([...byHono].some((h) => h.toLowerCase() === `${s.method} ${s.path}`.toLowerCase())) {
      advice.add(expressRouting ? 'case sensitive routing: keep this route' : 'expressRouting: true takes other case')
    } else {
      advice.add('other paths: keep this route')
    }
  }
  const shown =
    live
      .slice(0, 3)
      .map((s) => `${s.method} ${s.path}`)
      .join(', ') + (live.length > 3 ? ', …' : '')
  return `; still reached by ${shown} (${[...advice].join('; ')})`
}

function share(samples: { servedBy: string }[], side: string): string {
  const n = samples.filter((s) => s.servedBy === side).length
  return n === samples.length ? '' : ` (${n} of ${samples.length} sample requests)`
}

const routes = (n: number, side: string) => `${n} ${side} route${n === 1 ? '' : 's'}`

/** A titled table, or "(none)" under the title when there are no rows. */
function section(out: string[], title: string, header: string[], rows: string[][]): void {
  out.push('', title)
  out.push(rows.length === 0 ? '  (none)' : table([header, ...rows]))
}

/** Who answers the requests a trial holds back, by its canary share. */
function trialNote(samples: SampleResult[]): string {
  const canary = samples.find((s) => s.trial !== undefined)?.trial?.canary ?? 0
  if (canary === 0) return ': Express answers, Hono runs as its shadow'
  if (canary < 100) return `: Express answers, Hono a ${canary}% canary share`
  return ': Hono answers (canary 100%), Express the fallbacks'
}

function expressRow(e: MigrationReport['express'][number], expressRouting: boolean): string[] {
  const note =
    e.status === 'partly-shadowed'
      ? share(e.samples, 'hono') + stillReached(e, expressRouting)
      : e.status === 'under-trial'
        ? `${trialNote(e.samples)}; keep this route`
        : ''
  return [e.status, e.method, e.path, e.honoRoutes.join(', ') || '-', EXPRESS_NOTES[e.status] + note]
}

function honoRow(h: MigrationReport['hono'][number]): string[] {
  if (h.status === 'under-trial')
    return [h.status, h.method, h.path, h.expressRoutes.join(', ') || '-', HONO_NOTES[h.status] + trialNote(h.samples)]
  const first = h.status !== 'unreachable' && h.samples.some((x) => x.servedBy === 'express')
  const note =
    (first ? `; Express answers first${share(h.samples, 'express')}` : '') + h.warnings.map((w) => `; ${w}`).join('')
  return [h.status, h.method, h.path, h.expressRoutes.join(', ') || '-', HONO_NOTES[h.status] + note]
}

export function formatReport(report: MigrationReport): string {
  const out: string[] = []
  for (const b of report.bridges) {
    const notes =
      (b.expressRouting ? ', expressRouting' : '') + (b.detected ? '' : ', assumed in front of the Express routes')
    out.push(`Bridge at ${b.path} (mountPath: ${b.mountPath}${notes})`)
  }
  const expressRouting = report.bridges.some((b) => b.expressRouting)
  section(
    out,
    'Express routes',
    ['STATUS', 'METHOD', 'PATH', 'HONO ROUTE', 'NOTE'],
    report.express.map((e) => expressRow(e, expressRouting)),
  )
  section(out, 'Hono routes', ['STATUS', 'METHOD', 'PATH', 'EXPRESS ROUTE', 'NOTE'], report.hono.map(honoRow))
  if (report.partlyMoved.length > 0) {
    out.push('', 'Partly moved paths')
    out.push(
      table([
        ['PATH', 'ON HONO', 'STILL ON EXPRESS'],
        ...report.partlyMoved.map((p) => [p.path, p.hono.join(', '), p.express.join(', ')]),
      ]),
    )
  }
  if (report.shadow.length > 0) {
    out.push('', 'Shadow runs and canary (this process)')
    out.push(table(evidenceRows(report.shadow)))
  }
  const s = report.summary
  out.push(
    '',
    `${routes(s.expressRoutes, 'Express')}: ${s.shadowed} shadowed (safe to delete), ` +
      `${s.partlyShadowed} partly shadowed, ${s.live} still live${s.underTrial > 0 ? `, ${s.underTrial} under trial` : ''}.` +
      ` ${routes(s.honoRoutes, 'Hono')}: ${s.moved} moved, ${s.honoOnly} Hono-only, ${s.unreachable} unreachable` +
      `${s.honoUnderTrial > 0 ? `, ${s.honoUnderTrial} under trial` : ''}.` +
      (s.unchecked > 0 ? ` ${s.unchecked} not checked.` : ''),
  )
  return out.join('\n') + '\n'
}
