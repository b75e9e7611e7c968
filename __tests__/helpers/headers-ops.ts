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
