import fc from 'fast-check'

/** One Headers operation, applied alike to the bridge's Headers and the platform's (unit tests). */
export type Op =
  | { op: 'append' | 'set'; name: string; value: string }
  | { op: 'get' | 'has' | 'delete'; name: string }
  | { op: 'getSetCookie' | 'entries' | 'keys' | 'values' | 'forEach' }

/** The operation's result, or the error it threw (by class name and message). */
export function apply(headers: Headers, op: Op): unknown {
  try {
    switch (op.op) {
      case 'append':
      case 'set':
        return headers[op.op](op.name, op.value)
      case 'get':
      case 'has':
      case 'delete':
        return headers[op.op](op.name)
      case 'getSetCookie':
        return headers.getSetCookie()
      case 'forEach': {
        const seen: unknown[] = []
        headers.forEach((value, name, parent) => seen.push([name, value, parent === headers]))
        return seen
      }
      default:
        return [...headers[op.op]()]
    }
  } catch (err) {
    return { threw: (err as Error).constructor.name, message: (err as Error).message }
  }
}

/** Header names: common ones in either case, and any short string (empty, spaces, separators: invalid too). */
export const names = fc.oneof(
  fc.constantFrom('content-type', 'Content-Type', 'set-cookie', 'Set-Cookie', 'vary', 'X-A', 'x-a', 'accept'),
  fc.string({ maxLength: 6 }),
)
/** Header values: edge whitespace, CR/LF, NUL, Latin-1 and wider characters, and any short string. */
export const values = fc.oneof(
  fc.constantFrom('v', ' padded\t', 'a, b', '', '\r\nsplit', 'nul\0', 'é', '✓', 'x\ty'),
  fc.string({ maxLength: 8 }),
)
