import { RESPONSE_ALREADY_SENT as NODE_SERVER_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { NextFunction, Request, Response } from 'express'
import { Hono } from 'hono'
import { RESPONSE_ALREADY_SENT, type ExpressBindings } from '../../src/index.js'
import { ALL_HOSTS, host, legacyApp, type HostName, type Hosted } from '../helpers/hono-hosts.js'

// A Hono handler that answers through c.env.outgoing itself: the host must write nothing more.
let running: Hosted | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

function start(hostName: HostName, hono: Hono<any>) {
  const errors: unknown[] = []
  const legacy = legacyApp()
  return {
    errors,
    url: (async () => {
      // In middleware mode a write failure would reach the Express error handler.
      if (hostName === 'middleware mode') {
        running = await host(hostName, hono, legacy)
        legacy.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
          errors.push(err)
          res.end()
        })
      } else {
        running = await host(hostName, hono, legacy)
      }
      return running.url
    })(),
  }
}

describe.each(ALL_HOSTS)('a Hono handler that wrote the response itself, under %s', (hostName) => {
  it.each([
    ['RESPONSE_ALREADY_SENT', RESPONSE_ALREADY_SENT],
    ["@hono/node-server's RESPONSE_ALREADY_SENT", NODE_SERVER_ALREADY_SENT],
  ])('returning %s: the bridge writes nothing, even when the handler writes later', async (_name, marker) => {
    const hono = new Hono<{ Bindings: ExpressBindings }>()
    hono.get('/now', (c) => {
      c.env.outgoing.writeHead(201, { 'content-type': 'text/plain' })
      c.env.outgoing.end('by hand')
      return marker
    })
    hono.get('/later', (c) => {
      setTimeout(() => {
        c.env.outgoing.writeHead(202, { 'content-type': 'text/plain' })
        c.env.outgoing.end('later by hand')
      }, 10)
      return marker
    })
    const { url, errors } = start(hostName, hono)
    const now = await fetch((await url) + '/now')
    expect([now.status, await now.text(), now.headers.get('x-hono-already-sent')]).toEqual([201, 'by hand', null])
    const later = await fetch((await url) + '/later')
    expect([later.status, await later.text(), later.headers.get('x-hono-already-sent')]).toEqual([202, 'later by hand', null])
    expect(errors).toEqual([])
  })

  // @hono/node-server itself would try to write the returned response (its convention is the marker).
  if (hostName !== '@hono/node-server serve') {
    it('returning another response after answering: it is dropped, no error', async () => {
      const hono = new Hono<{ Bindings: ExpressBindings }>()
      hono.get('/', (c) => {
        c.env.outgoing.end('first')
        return c.text('second')
      })
      const { url, errors } = start(hostName, hono)
      const res = await fetch(await url)
      expect(await res.text()).toBe('first')
      expect(await (await fetch(await url)).text()).toBe('first')
      expect(errors).toEqual([])
    })
  }
})
