/**
 * Representative concrete paths for a route pattern, so the migration report can ask each router
 * (Express's layers, Hono's router) whether it would serve them, instead of comparing pattern text.
 * The samples are only candidates: callers keep those the route's own router accepts.
 */

/** Values tried for a named parameter: a number and a word tell `:id{[0-9]+}` apart from `:id`. */
const PARAM_VALUES = ['1', 'sample']
/** Extra values tried against a Hono parameter's own regex when neither of the above fits. */
const REGEX_VALUES = ['a', 'A', 'x-y', 'x.html', 'x.json', '2024-01-01', 'abc123', 'v1']
const WILDCARD_VALUES = ['x', 'x/y']
/** Caps the cartesian product for patterns with many optional parts. */
const MAX_SAMPLES = 16

type Alternatives = string[]

function product(parts: Alternatives[]): string[] {
  let out = ['']
  for (const alternatives of parts) {
    const next: string[] = []
    for (const prefix of out) {
      for (const alt of alternatives) {
        if (next.length < MAX_SAMPLES) next.push(prefix + alt)
      }
    }
    out = next
  }
  return out
}

/** Collects a pattern's parts: literal text between the alternatives of its parameters. */
class Parts {
  readonly parts: Alternatives[] = []
  literal = ''

  flush(): void {
    if (this.literal !== '') this.parts.push([this.literal])
    this.literal = ''
  }

  /** A parameter's values; an optional one (`/:id?`) makes the slash before it optional too. */
  param(values: Alternatives, optional: boolean): void {
    if (optional) {
      if (this.literal.endsWith('/')) {
        this.literal = this.literal.slice(0, -1)
        values = ['', ...values.map((v) => '/' + v)]
      } else values = ['', ...values]
    }
    this.flush()
    this.parts.push(values)
  }

  /** Walks `path`: `step` consumes the syntax at `i` and returns the index after it, or -1 for literal text. */
  scan(path: string, step: (ch: string, i: number) => number): string[] {
    let i = 0
    while (i < path.length) {
      const next = step(path[i], i)
      if (next < 0) this.literal += path[i++]
      else i = next
    }
    this.flush()
    return product(this.parts)
  }
}

const NAME = /^(?:[A-Za-z0-9_$]+|"(?:[^"\\]|\\.)*")/

/** Index just past the group opened at `start` (which holds `open`), honouring backslash escapes. */
function closing(path: string, start: number, open: string, close: string): number {
  let depth = 0
  for (let i = start; i < path.length; i++) {
    const ch = path[i]
    if (ch === '\\') i++
    else if (ch === open) depth++
    else if (ch === close && --depth === 0) return i + 1
  }
  return path.length
}

/**
 * Samples for an Express path: Express 5 syntax (`:id`, `*rest`, `{/optional}`, `\\` escapes) and
 * Express 4 syntax (`:id?`, `:id(\\d+)`, `*`).
 */
export function expressSamples(path: string): string[] {
  const out = new Parts()
  return out.scan(path, (ch, i) => {
    if (ch === '\\') {
      out.literal += path[i + 1] ?? ''
      return i + 2
    }
    if (ch === '{') {
      const end = closing(path, i, '{', '}')
      out.flush()
      out.parts.push(['', ...expressSamples(path.slice(i + 1, end - 1))])
      return end
    }
    if (ch !== ':' && ch !== '*') return -1
    const name = NAME.exec(path.slice(i + 1))
    i += 1 + (name ? name[0].length : 0)
    if (path[i] === '(') i = closing(path, i, '(', ')') // Express 4 inline regex: the layer validates
    const modifier = path[i]
    const repeated = modifier === '*' || modifier === '+'
    if (modifier === '?' || repeated) i++
    out.param(ch === '*' || repeated ? WILDCARD_VALUES : PARAM_VALUES, modifier === '?' || modifier === '*')
    return i
  })
}

function valuesFor(regex: string | undefined): Alternatives {
  if (regex === undefined) return [...PARAM_VALUES]
  let re: RegExp
  try {
    re = new RegExp(`^(?:${regex})$`)
  } catch {
    return [...PARAM_VALUES]
  }
  const fitting = [...PARAM_VALUES, ...REGEX_VALUES].filter((v) => re.test(v))
  return fitting.length > 0 ? fitting.slice(0, 2) : [...PARAM_VALUES]
}

/**
 * Samples for a Hono path: `:id`, `:id{[0-9]+}`, `:id?`, `*` (whose remainder may be empty: `/users/*` matches
 * `/users`).
 */
export function honoSamples(path: string): string[] {
  const out = new Parts()
  return out.scan(path, (ch, i) => {
    if (ch === '*') {
      out.param(WILDCARD_VALUES, true)
      return i + 1
    }
    if (ch !== ':') return -1
    const name = /^[^/{?]*/.exec(path.slice(i + 1))![0]
    i += 1 + name.length
    let regex: string | undefined
    if (path[i] === '{') {
      const end = closing(path, i, '{', '}')
      regex = path.slice(i + 1, end - 1)
      i = end
    }
    const optional = path[i] === '?'
    out.param(valuesFor(regex), optional)
    return optional ? i + 1 : i
  })
}

/**
 * The requests next to a sample that the two routers tell apart: a trailing slash and other letter
 * case (Express matches both by default, Hono neither), so a claim holds for them too.
 */
export function neighbours(path: string): string[] {
  const out = [path]
  if (path.length > 1) out.push(path.endsWith('/') ? path.slice(0, -1) : path + '/')
  else out.push(path)
  const upper = path.toUpperCase()
  if (upper !== path)
    out.push(
      upper,
      path.replace(/\/([a-z])/g, (_m, c: string) => '/' + c.toUpperCase()),
    )
  return [...new Set(out)]
}

/** Joins a mount prefix and a path below it the way Express strips and restores them. */
export function joinPath(prefix: string, path: string): string {
  if (prefix === '' || prefix === '/') return path.startsWith('/') ? path : '/' + path
  if (path === '/' || path === '') return prefix
  return prefix.replace(/\/$/, '') + (path.startsWith('/') ? path : '/' + path)
}
