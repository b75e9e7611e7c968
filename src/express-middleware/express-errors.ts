import { STATUS_CODES } from 'node:http'

/**
 * What Hono's error handling gets from `next(err)`: the middleware's own Error (so `err.status`,
 * `err.code` and `instanceof` checks in `hono.onError` still work), wrapped only when it is not an
 * Error (Hono hands non-Errors past `onError`). An error with an HTTP status (http-errors: csrf
 * 403, body-parser 400/413…) also answers with that status under Hono's default handler, as
 * Express's final handler would: Hono calls `getResponse()` on errors that have one.
 */
export function toHonoError(value: unknown): Error {
  const err =
    value instanceof Error
      ? value
      : new Error(typeof value === 'string' ? value : 'Express middleware failed', { cause: value })
  const status = statusOf(err)
  if (status !== undefined && !('getResponse' in err)) {
    Object.defineProperty(err, 'getResponse', {
      configurable: true,
      writable: true,
      value: () => errorResponse(err, status),
    })
  }
  return err
}

function statusOf(err: Error): number | undefined {
  const e = err as { status?: unknown; statusCode?: unknown }
  const status = e.status ?? e.statusCode
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600 ? status : undefined
}

/** Like Express's final handler: the error's headers, and its message only when it is meant to be shown. */
function errorResponse(err: Error, status: number): Response {
  const headers = new Headers({ 'content-type': 'text/plain; charset=utf-8' })
  const extra = (err as { headers?: unknown }).headers
  if (extra !== null && typeof extra === 'object') {
    for (const [name, value] of Object.entries(extra)) {
      try {
        headers.set(name, String(value))
      } catch {
        // not a valid header: leave it out
      }
    }
  }
  const expose = (err as { expose?: unknown }).expose === true
  return new Response(expose ? err.message : (STATUS_CODES[status] ?? 'Error'), { status, headers })
}
