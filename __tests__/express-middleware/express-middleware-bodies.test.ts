import express from 'express'
import { Hono } from 'hono'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { expressMiddleware } from '../../src/index.js'
import { ALL_HOSTS, host, type Hosted } from '../helpers/hono-hosts.js'

// Bodies an Express parser read inside expressMiddleware() stay readable by Hono; others stay untouched.
let running: Hosted | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

describe.each(ALL_HOSTS)('request bodies and expressMiddleware() under %s', (hostName) => {
  async function start(hono: Hono<any>) {
    running = await host(hostName, hono)
    return running.url
  }

  it('express.json() inside: c.req.json() reads the parsed body, even if the Request was touched before', async () => {
    const hono = new Hono()
    // The Request Hono holds is created (and its headers read) before the parser runs.
    hono.use(async (c, next) => {
      c.req.header('content-type')
      void c.req.raw.headers.get('content-length')
      await next()
    })
    hono.post('/json', expressMiddleware(express.json()), async (c) => c.json({ fromHono: await c.req.json(), fromExpress: (c.env.incoming as any).body }))
    const res = await fetch((await start(hono)) + '/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' })
    expect(await res.json()).toEqual({ fromHono: { a: [1, 2] }, fromExpress: { a: [1, 2] } })
  })

  it('express.urlencoded() inside: c.req.parseBody() sees the fields', async () => {
    const hono = new Hono()
    hono.post('/form', expressMiddleware(express.urlencoded({ extended: false })), async (c) => c.json(await c.req.parseBody({ all: true })))
    const res = await fetch((await start(hono)) + '/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=ada&tag=x&tag=y',
    })
    expect(await res.json()).toEqual({ name: 'ada', tag: ['x', 'y'] })
  })

  it('a body the middleware did not read is untouched', async () => {
    const hono = new Hono()
    hono.post(
      '/raw',
      expressMiddleware(express.json(), (_req: IncomingMessage, _res: ServerResponse, next: () => void) => next()),
      async (c) => c.text(await c.req.text()),
    )
    const res = await fetch((await start(hono)) + '/raw', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b\n1,2' })
    expect(await res.text()).toBe('a,b\n1,2')
  })
})
