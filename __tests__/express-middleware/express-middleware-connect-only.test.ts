import connect from 'connect'
import { Hono } from 'hono'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { resetDefaultExpressApp } from '../../src/express-middleware/express-app.js'
import { expressMiddleware, type ExpressBindings } from '../../src/index.js'
import { host, type Hosted } from '../helpers/hono-hosts.js'

// Without express installed, Connect-style middleware still runs, on plain node:http objects.
let running: Hosted | undefined
beforeAll(() => {
  jest.doMock('express', () => {
    throw Object.assign(new Error("Cannot find module 'express'"), { code: 'MODULE_NOT_FOUND' })
  })
  resetDefaultExpressApp(undefined)
})
afterAll(async () => {
  await running?.close()
  jest.dontMock('express')
  resetDefaultExpressApp(undefined)
})

it('runs Connect middleware (and a Connect app) without express', async () => {
  const sub = connect()
  sub.use('/sub', (_req: IncomingMessage, res: ServerResponse) => res.end('connect app'))
  const hono = new Hono<{ Bindings: ExpressBindings }>()
  hono.use(
    expressMiddleware((req: IncomingMessage & { tag?: string }, res: ServerResponse, next: () => void) => {
      req.tag = typeof (req as { get?: unknown }).get
      res.setHeader('x-connect', 'yes')
      next()
    }, sub),
  )
  hono.get('/', (c) => c.text(String((c.env.incoming as { tag?: string }).tag)))
  running = await host('front-door', hono)
  const res = await fetch(running.url + '/')
  expect(res.headers.get('x-connect')).toBe('yes')
  // No Express request API was attached: req.get is not there.
  expect(await res.text()).toBe('undefined')
  expect(await (await fetch(running.url + '/sub')).text()).toBe('connect app')
})
