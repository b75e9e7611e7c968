/**
 * Running a list of Express/Connect middleware the way Express's router runs `app.use()` layers:
 * error handlers (four parameters) only see errors, `next('route')` goes on to the next layer,
 * `next('router')` leaves the list, a throw or a rejected promise becomes `next(err)`. The run ends
 * when a middleware hands on past the last one, or when the response is finished without that
 * (the middleware answered by itself).
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import { isThenable } from '../core/app-kinds.js'

export type ExpressHandler = (...args: any[]) => unknown

/**
 * A `next(err)` that comes after the run handed on (connect-timeout's 503, from a timer): in Express
 * it reaches the error handlers while the route is still working, and wins if nothing was sent yet.
 */
interface LateErrors {
  /** The first late error, once one came. */
  error?: unknown
  /** Called with it, if set by then. */
  listener?: ((err: unknown) => void) | undefined
}

/** How the run ended. */
export type ChainOutcome = { kind: 'next'; late: LateErrors } | { kind: 'error'; error: unknown } | { kind: 'answered' }

const ANSWERED: ChainOutcome = Object.freeze({ kind: 'answered' })

export function runChain(
  stack: readonly ExpressHandler[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<ChainOutcome> {
  return new Promise<ChainOutcome>((resolve) => {
    let settled = false
    let late: LateErrors | undefined
    let index = 0
    const settle = (outcome: ChainOutcome) => {
      if (settled) return
      settled = true
      res.off('finish', onEnd)
      res.off('close', onEnd)
      resolve(outcome)
    }
    // finish: the middleware sent a whole answer; close first: the client left while it worked.
    const onEnd = () => settle(ANSWERED)
    res.once('finish', onEnd)
    res.once('close', onEnd)

    const next = (err?: unknown): void => {
      if (settled) {
        // After the run handed on, only an error still matters (Express would run its error handlers).
        if (late !== undefined && err && err !== 'route' && err !== 'router' && late.error === undefined) {
          late.error = err
          late.listener?.(err)
        }
        return
      }
      if (err === 'router') return settle(handedOn())
      // As in Express, any falsy value is "no error", and 'route' skips to the next layer.
      let error = err === 'route' ? undefined : err
      while (index < stack.length) {
        const fn = stack[index++]
        const handlesErrors = fn.length === 4
        if (error ? !handlesErrors : handlesErrors) continue
        const reqNext = req as { next?: unknown }
        reqNext.next = next
        try {
          const result = error ? fn(error, req, res, next) : fn(req, res, next)
          if (isThenable(result)) {
            ;(result as Promise<unknown>).then(undefined, (e: unknown) => next(e || new Error('Rejected promise')))
          }
          return
        } catch (e) {
          error = e || new Error('Middleware threw a falsy value')
        }
      }
      settle(error ? { kind: 'error', error } : handedOn())
    }
    const handedOn = (): ChainOutcome => ({ kind: 'next', late: (late = {}) })
    if (res.writableEnded) settle(ANSWERED)
    else next()
  })
}
