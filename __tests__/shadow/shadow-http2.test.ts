import http2 from 'node:http2'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { h2Fetch, listenH2 } from '../helpers/h2.js'
import { recordedTrial } from './trial.js'

type H2Handler = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void

it('a front door under a shadow trial serves HTTP/2: Express answers the trial route, the twin is compared', async () => {
  const { trial, until } = recordedTrial({ routes: [{ route: '/users/:id' }], noise: false })
  const hono = new Hono()
  hono.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
  const app = express()
  app.get('/users/:id', (req, res) => res.json({ id: Number(req.params.id) }))
  const srv = await listenH2(http2.createServer(fetchBridge(hono, { fallback: app, shadow: trial }) as unknown as H2Handler), false)
  try {
    expect((await h2Fetch(srv.origin, { ':path': '/users/7' })).text).toBe('{"id":7}')
    const [result] = await until(1)
    expect(result.diffs.map(String)).toEqual(['$.id: 7 vs "7"'])
  } finally {
    await srv.close()
  }
})
