import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * `app.listen(port)` that reports a start-up failure (port in use, no permission) and exits 1 instead
 * of printing "listening" anyway: Express 5 hands the listen error to the callback, which a callback
 * written for Express 4 ignores. Prints `banner(url)` once the server really listens.
 */
export function listenOrExit(app: { listen(port: number): Server }, port: number, banner: (url: string) => string[]): Server {
  const server = app.listen(port)
  server.once('error', (err: NodeJS.ErrnoException) => {
    console.error(`cannot listen on port ${port}: ${err.code ?? err.message}`)
    process.exit(1)
  })
  server.once('listening', () => {
    const url = `http://localhost:${(server.address() as AddressInfo).port}`
    for (const line of banner(url)) console.log(line)
  })
  return server
}
