/** Thrown for a request whose URL cannot be formed (bad Host, bad target): answered with 400. */
export class BadRequestError extends Error {
  readonly status = 400
  constructor(message: string) {
    super(message)
    this.name = 'BadRequestError'
  }
}
