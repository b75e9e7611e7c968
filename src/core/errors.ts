import { processShared } from './process-shared.js'

class BadRequestErrorClass extends Error {
  readonly status = 400
  static {
    Object.defineProperty(this, 'name', { value: 'BadRequestError' })
  }
  constructor(message: string) {
    super(message)
    this.name = 'BadRequestError'
  }
}

/**
 * Thrown for a request whose URL cannot be formed (bad Host, bad target): answered with 400. One
 * class per process, so `err instanceof BadRequestError` holds whichever build threw it.
 */
export const BadRequestError = processShared('bad-request-error@1', BadRequestErrorClass)
export type BadRequestError = BadRequestErrorClass
