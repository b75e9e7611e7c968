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
  const parts: Alternatives[] = []
  let literal = ''
  const flush = () => {
    if (literal !== '') parts.push([literal])
    literal = ''
  }
  let i = 0
  while (i < path.length) {
    const ch = path[i]
    if (ch === '\\') {
      literal += path[i + 1] ?? ''
      i += 2
    } else if (ch === '{') {
      const end = closing(path, i, '{', '}')
      flush()
      parts.push(['', ...expressSamples(path.slice(i + 1, end - 1))])
      i = end
    } else if (ch === ':' || ch === '*') {
      const name = NAME.exec(path.slice(i + 1))
      i += 1 + (name ? name[0].length : 0)
      if (path[i] === '(') i = closing(path, i, '(', ')') // Express 4 inline regex: the layer validates
      let values = ch === '*' ? WILDCARD_VALUES : PARAM_VALUES
      const modifier = path[i]
      if (modifier === '?' || modifier === '*' || modifier === '+') {
        i++
        if (modifier !== '?') values = WILDCARD_VALUES
        if (modifier !== '+') {
          // `/:id?` makes the slash optional too.
          if (literal.endsWith('/')) {
            literal = literal.slice(0, -1)
            values = ['', ...values.map((v) => '/' + v)]
          } else values = ['', ...values]
        }
      }
      flush()
      parts.push(values)
    } else {
      literal += ch
      i++
    }
  }
  flush()
  return product(parts)
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

/** Samples for a Hono path: `:id`, `:id{[0-9]+}`, `:id?`, `*`. */
export function honoSamples(path: string): string[] {
  const parts: Alternatives[] = []
  let literal = ''
  const flush = () => {
    if (literal !== '') parts.push([literal])
    literal = ''
  }
  let i = 0
  while (i < path.length) {
    const ch = path[i]
    if (ch === ':') {
      const name = /^[^/{?]*/.exec(path.slice(i + 1))![0]
      i += 1 + name.length
      let regex: string | undefined
      if (path[i] === '{') {
        const end = closing(path, i, '{', '}')
        regex = path.slice(i + 1, end - 1)
        i = end
      }
      let values = valuesFor(regex)
      if (path[i] === '?') {
        i++
        if (literal.endsWith('/')) {
          literal = literal.slice(0, -1)
          values = ['', ...values.map((v) => '/' + v)]
        } else values = ['', ...values]
      }
      flush()
      parts.push(values)
    } else if (ch === '*') {
      flush()
      parts.push(WILDCARD_VALUES)
      i++
    } else {
      literal += ch
      i++
    }
  }
  flush()
  return product(parts)
}

/** Joins a mount prefix and a path below it the way Express strips and restores them. */
export function joinPath(prefix: string, path: string): string {
  if (prefix === '' || prefix === '/') return path.startsWith('/') ? path : '/' + path
  if (path === '/' || path === '') return prefix
  return prefix.replace(/\/$/, '') + (path.startsWith('/') ? path : '/' + path)
}
