/**
 * Express's matching rules applied to a Hono app's routes: the one rule behind the `expressRouting`
 * option (dispatch, the hand-on check, `onDispatch`, WebSocket upgrades and the migration report all
 * ask it). Express matches the letters of a route's literal text in any case unless `case sensitive
 * routing` is on, and takes one trailing slash more or less unless `strict routing` is on; Hono's
 * router does neither. Rather than a second router, the request path is respelled: the first route
 * (in registration order, as Express tries them) that Express would route the path to gives its
 * literal text and trailing slash, parameters and wildcards keep what the client sent, and Hono's own
 * router must then match that respelled path to that route, or nothing is respelled.
 */
import { isMiddleware, routerMatches, type HonoRoute, type HonoRoutes } from './hono-routes.js'

/** The two Express settings that decide how a path matches a route. */
export interface ExpressRoutingSettings {
  /** `case sensitive routing` (a Router's `caseSensitive`): literal text matches only in its own case. */
  caseSensitive: boolean
  /** `strict routing` (a Router's `strict`): a trailing slash is part of the path. */
  strict: boolean
  /** Express 4, whose route `/` does not take `//` (Express 5's does). */
  express4?: boolean | undefined
}

/** A route pattern as a case-insensitive RegExp with an optional trailing slash, and how to respell a match. */
interface Compiled {
  re: RegExp
  /** Literal text of the pattern, or for each captured part the text put before what it captured. */
  parts: Array<{ literal: string } | { before: string }>
}

const compiled = new Map<string, Compiled | null>()

/** Index just past the `{…}` group opened at `start`. */
function closing(path: string, start: number): number {
  let depth = 0
  for (let i = start; i < path.length; i++) {
    if (path[i] === '\\') i++
    else if (path[i] === '{') depth++
    else if (path[i] === '}' && --depth === 0) return i + 1
  }
  return path.length
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Hono's pattern syntax (`:name`, `:name{re}`, `:name?`, `*`) as the matcher above; undefined if unreadable. */
function compile(pattern: string): Compiled | null {
  const parts: Compiled['parts'] = []
  let source = ''
  let literal = ''
  const flush = () => {
    if (literal === '') return
    parts.push({ literal })
    source += escape(literal)
    literal = ''
  }
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i]
    if (ch === ':' && pattern[i - 1] === '/') {
      let j = i + 1
      while (j < pattern.length && !'/{?'.includes(pattern[j])) j++
      let re = '[^/]+'
      if (pattern[j] === '{') {
        const end = closing(pattern, j)
        re = pattern.slice(j + 1, end - 1)
        j = end
      }
      // An optional parameter takes the slash before it along (`/users/:id?` matches `/users`).
      if (pattern[j] === '?') {
        literal = literal.slice(0, -1)
        flush()
        parts.push({ before: '/' })
        source += `(?:/(${re}))?`
        j++
      } else {
        flush()
        parts.push({ before: '' })
        source += `(${re})`
      }
      i = j
    } else if (ch === '*') {
      // A trailing `/*` also matches the path without it (`/users/*` matches `/users`), as in Hono.
      if (i === pattern.length - 1 && literal.endsWith('/')) {
        literal = literal.slice(0, -1)
        flush()
        parts.push({ before: '/' })
        source += '(?:/(.*))?'
      } else {
        flush()
        parts.push({ before: '' })
        source += '(.*)'
      }
      i++
    } else {
      literal += ch
      i++
    }
  }
  // One trailing slash more or less: the post-check below decides whether the settings allow it.
  const slash = literal.length > 1 && literal.endsWith('/')
  if (slash) literal = literal.slice(0, -1)
  flush()
  if (slash) parts.push({ literal: '/' })
  try {
    return { re: new RegExp(`^${source}/?$`, 'i'), parts }
  } catch {
    return null
  }
}

/** The path `route` would be spelled as for `path`, or undefined if it does not match. */
function respell(route: HonoRoute, path: string): string | undefined {
  let c = compiled.get(route.path)
  if (c === undefined) compiled.set(route.path, (c = compile(route.path)))
  const m = c?.re.exec(path)
  if (!m) return undefined
  let out = ''
  let group = 1
  for (const part of c!.parts) {
    if ('literal' in part) out += part.literal
    else {
      const value = m[group++]
      if (value !== undefined) out += part.before + value
    }
  }
  return out === '' ? '/' : out
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/** Whether `a` and `b` differ only in the case of ASCII letters (none at all when `caseSensitive`). */
function sameLetters(a: string, b: string, caseSensitive: boolean): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y && (caseSensitive || !isLetter(x) || (x | 32) !== (y | 32))) return false
  }
  return true
}

/**
 * Whether Express would route `from` to a route spelled `to` under `settings`: ASCII letters in
 * another case, one trailing slash more or less. The first `mounted` characters are a mount prefix
 * Express has already matched (in any case); after it, Express routes an empty rest as `/`, and
 * Express 5 (not 4) routes `//` to its route `/`.
 */
function sameToExpress(from: string, to: string, settings: ExpressRoutingSettings, mounted: number): boolean {
  if (!sameLetters(from.slice(0, mounted), to.slice(0, mounted), false)) return false
  const a = from.slice(mounted) || '/'
  const b = to.slice(mounted) || '/'
  if (a.length === b.length) return sameLetters(a, b, settings.caseSensitive)
  if (settings.strict) return false
  if (b === '/') return a === '//' && !settings.express4
  if (a.length === b.length + 1 && a.endsWith('/')) return sameLetters(a.slice(0, -1), b, settings.caseSensitive)
  if (b.length === a.length + 1 && b.endsWith('/')) return sameLetters(a, b.slice(0, -1), settings.caseSensitive)
  return false
}

interface Node {
  children: Map<string, Node>
  /** Indexes of routes whose literal segments end here and go on with a parameter or wildcard. */
  open: number[]
  /** Indexes of routes made only of the literal segments to here. */
  exact: number[]
}

const newNode = (): Node => ({ children: new Map(), open: [], exact: [] })
/** `/Users/1/` → `['users', '1']`; `/` and `//` (a trailing slash more) → `[]`. */
function segmentsOf(path: string): string[] {
  const p = path.toLowerCase().replace(/\/$/, '')
  return p === '' || p === '/' ? [] : p.split('/').slice(1)
}

/** The handler routes by their leading literal segments (lower case), rebuilt when routes are added. */
function indexOf(routes: HonoRoute[]): Node {
  const root = newNode()
  routes.forEach((route, index) => {
    // Middleware (`use()`, `all()` with `(c, next)`) is matched as Hono matches it; a method's own handler
    // taking `next` (`get('/chat', upgradeWebSocket(…))`) is a route.
    if (route.method === 'ALL' && isMiddleware(route.handler)) return
    // `app.get('*')`: every path.
    if (route.path.charCodeAt(0) !== 47) return void root.open.push(index)
    let node = root
    let open = false
    for (const segment of segmentsOf(route.path)) {
      if (/[:*{]/.test(segment)) {
        open = true
        break
      }
      let child = node.children.get(segment)
      if (child === undefined) node.children.set(segment, (child = newNode()))
      node = child
    }
    ;(open ? node.open : node.exact).push(index)
  })
  return root
}

const indexes = new WeakMap<object, { count: number; root: Node }>()

/** Indexes of the routes that may match `path` in any case, ascending. */
function candidates(hono: HonoRoutes, path: string): number[] {
  let index = indexes.get(hono)
  if (index === undefined || index.count !== hono.routes.length) {
    index = { count: hono.routes.length, root: indexOf(hono.routes) }
    indexes.set(hono, index)
  }
  const out: number[] = []
  let node: Node | undefined = index.root
  for (const segment of segmentsOf(path)) {
    out.push(...node.open)
    node = node.children.get(segment)
    if (node === undefined) break
  }
  if (node !== undefined) out.push(...node.open, ...node.exact)
  return out.length > 1 ? out.sort((a, b) => a - b) : out
}

const methodFits = (route: HonoRoute, method: string) =>
  route.method === method || route.method === 'ALL' || (method === 'HEAD' && route.method === 'GET')

/**
 * The path Hono must route on for a request to `path` (a path Hono routes on: decoded, see
 * `honoPath`) so that it reaches the route Express would route it to under `settings`, or undefined
 * when no handler route matches it that way. `mounted`: the length of a mount prefix already matched.
 */
export function expressRouted(
  hono: HonoRoutes,
  method: string,
  path: string,
  settings: ExpressRoutingSettings,
  mounted = 0,
): string | undefined {
  const routes = hono.routes
  // `/api//` under a kept mount `/api` is `//` to Express: matched as its route `/` may match it.
  const probe = mounted > 0 && path.length === mounted + 2 && path.endsWith('//') ? path.slice(0, -1) : path
  for (const i of candidates(hono, probe)) {
    const route = routes[i]
    if (!methodFits(route, method)) continue
    const spelled = respell(route, probe)
    if (spelled === undefined || !sameToExpress(path, spelled, settings, mounted)) continue
    // Hono's own router has the last word: the respelled path must reach this very route.
    if (spelled === path || routerMatches(hono, method, spelled).some((m) => m[0][1] === route)) return spelled
  }
  return undefined
}
