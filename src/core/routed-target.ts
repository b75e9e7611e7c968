/**
 * The request target under `expressRouting`: the client's target respelled so that Hono's router
 * reaches the route Express would have routed it to (core/express-matching.ts decides; this file only
 * carries its answer, made on the decoded path Hono routes on, back onto the raw target).
 */
import { expressRouted, type ExpressRoutingSettings } from './express-matching.js'
import { honoPath, type HonoRoutes } from './hono-routes.js'

/** A Hono app and the Express settings a bridge routes its requests by. */
export interface TargetRouting {
  hono: HonoRoutes
  settings: ExpressRoutingSettings
}

/** Bytes of the UTF-8 sequence that starts with `byte`. */
const utf8Length = (byte: number) => (byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2)

/**
 * `raw` (a path as sent) respelled as `to` respells `from` (`from` is `raw` as Hono decodes it; `to`
 * differs in the case of ASCII letters and a trailing slash). Undefined when the two cannot be
 * lined up (they always can for what `expressRouted` returns).
 */
function carry(raw: string, from: string, to: string): string | undefined {
  const n = Math.min(from.length, to.length)
  let out = ''
  let r = 0
  let h = 0
  while (h < n) {
    if (raw.charCodeAt(r) === 37 /* '%' */) {
      // An escape Hono keeps (`%2F`) is three characters on both sides; one it decodes is one character
      // (two for a surrogate pair) for the run of escapes of its UTF-8 bytes.
      const bytes = from.charCodeAt(h) === 37 ? 1 : utf8Length(parseInt(raw.slice(r + 1, r + 3), 16))
      out += raw.slice(r, r + 3 * bytes)
      r += 3 * bytes
      h += from.charCodeAt(h) === 37 ? 3 : bytes === 4 ? 2 : 1
      continue
    }
    if (raw[r] !== from[h]) return undefined
    out += to[h]
    r++
    h++
  }
  if (h !== n) return undefined
  if (to.length > from.length) return raw.endsWith('/') ? raw : out + raw.slice(r) + '/'
  if (to.length < from.length) return out
  return out + raw.slice(r)
}

/**
 * `target` (path and query, as the app would get it) respelled for `method` under `routing`; the
 * target itself when no route matches it the Express way or it already reads as its route's.
 * `mounted`: the length of a mount prefix in front (`mountPath: 'keep'`), which Express has already
 * matched in whatever case it came.
 */
export function routedTarget(routing: TargetRouting, method: string, target: string, mounted = 0): string {
  const query = target.indexOf('?')
  const raw = query === -1 ? target : target.slice(0, query)
  let from: string
  try {
    from = honoPath(routing.hono, raw)
  } catch {
    return target
  }
  if (mounted > 0 && raw.includes('%')) mounted = honoPath(routing.hono, raw.slice(0, mounted)).length
  const to = expressRouted(routing.hono, method, from, routing.settings, mounted)
  if (to === undefined || to === from) return target
  const spelled = carry(raw, from, to)
  if (spelled === undefined) return target
  return query === -1 ? spelled : spelled + target.slice(query)
}
