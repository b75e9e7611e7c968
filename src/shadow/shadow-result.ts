/** What `onResult` receives: one comparison (or skip) of a trial route. */
import type { ShadowSkipReason } from '../bridge/shadow-hook.js'

/**
 * One difference between Express's answer and the Hono twin's. Its `toString()` reads
 * `$.items[3].price: 10 vs "10"` (Express's value first).
 */
export interface ShadowDiff {
  /** `status`, `header:<name>`, a JSON path (`$.items[3].price`), `body` (text or bytes) or `error` (the twin threw, hung or returned nothing). */
  field: string
  /**
   * `value` (same type, other value), `type` (`10` vs `"10"`), `missing` (only Express has it), `extra`
   * (only Hono has it), `order` (an array with the same items in another order), `error`.
   */
  kind: 'value' | 'type' | 'missing' | 'extra' | 'order' | 'error'
  /** Express's side, as text (JSON for JSON values; `undefined` when missing). */
  express: string | undefined
  /** Hono's side, as text. */
  hono: string | undefined
  /** The field also differs between two runs of the Hono route on the same request: noise, not a mismatch. */
  noise: boolean
}

/** One side's answer in a {@link ShadowResult}. */
export interface ShadowSide {
  /** The status (0 when the twin threw, hung or returned nothing). */
  status: number
  /** Milliseconds: Express from the bridge receiving the request to the response's end; Hono its shadow run. */
  duration: number
}

/** What `onResult` receives, once per request of a trial route that was compared or skipped. */
export interface ShadowResult {
  /** The request method. */
  method: string
  /** The Hono route pattern (`'/users/:id'`). */
  route: string
  /** The request path and query. */
  url: string
  /** `match` (no difference but noise), `mismatch`, or `skipped` (see `reason`). */
  outcome: 'match' | 'mismatch' | 'skipped'
  /** Why it was skipped. */
  reason?: ShadowSkipReason | undefined
  /** The differences (noise included, marked). */
  diffs: ShadowDiff[]
  /** Express's answer. */
  express: ShadowSide
  /** The Hono twin's answer (undefined when skipped). */
  hono?: ShadowSide | undefined
  /** One line: `GET /users/:id mismatch: $.price: 10 vs "10"; header:cache-control: …`. */
  summary: string
}

function diffText(d: ShadowDiff): string {
  if (d.kind === 'missing') return `${d.field}: ${d.express} vs (missing)`
  if (d.kind === 'extra') return `${d.field}: (missing) vs ${d.hono}`
  if (d.kind === 'error') return `${d.field}: ${d.hono}`
  if (d.kind === 'order') return `${d.field}: same items in another order`
  return `${d.field}: ${d.express} vs ${d.hono}`
}

export function makeDiff(
  field: string,
  kind: ShadowDiff['kind'],
  express: string | undefined,
  hono: string | undefined,
): ShadowDiff {
  const diff: ShadowDiff = { field, kind, express, hono, noise: false }
  Object.defineProperty(diff, 'toString', { value: () => diffText(diff) })
  return diff
}

export function summarize(result: Omit<ShadowResult, 'summary'>): string {
  const head = `${result.method} ${result.route} ${result.outcome}`
  if (result.outcome === 'skipped') return `${head} (${result.reason})`
  const shown = result.diffs.filter((d) => !d.noise)
  const noise = result.diffs.length - shown.length
  const text = shown.slice(0, 5).map(diffText).join('; ')
  const more = shown.length > 5 ? `; and ${shown.length - 5} more` : ''
  return `${head}${text ? `: ${text}${more}` : ''}${noise > 0 ? ` (${noise} noise field${noise === 1 ? '' : 's'})` : ''}`
}
