import { getRequestListener } from '@hono/node-server'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, request } from '../helpers/transport.js'

// A Response-shaped object without a body (status and headers; hono/cache's tests return
// `{ status, headers, clone }` for statuses the Response constructor refuses) is sent as its status
// and headers with no body: the app's headers and status as @hono/node-server sends them (which adds a
// default Content-Type of its own), framed as the bridge frames a Response with a null body.

function app() {
  const hono = new Hono()
  const headers = () => {
    const headers = new Headers({ 'x-a': '1', 'cache-control': 'no-store' })
    headers.append('set-cookie', 'a=1')
    headers.append('set-cookie', 'b=2')
    return headers
  }
  hono.get('/:status', (c) => {
    const shaped = { status: Number(c.req.param('status')), headers: headers(), clone: () => shaped }
    return shaped as unknown as Response
  })
  hono.get('/real/:status', (c) => new Response(null, { status: Number(c.req.param('status')), headers: headers() }))
  return hono
}

const appHeaders = (headers: Record<string, unknown>) => ({
  'x-a': headers['x-a'],
  'cache-control': headers['cache-control'],
  'set-cookie': headers['set-cookie'],
})

const statuses = ['200', '201', '404', '503', '299']

it.each(['GET', 'HEAD'])('%s: answers as @hono/node-server does (status, every header, no body)', async (method) => {
  const bridge = await listen(express().use(fetchBridge(app())))
  const peer = await listen(getRequestListener(app().fetch))
  try {
    for (const status of statuses) {
      const ours = await request(`${bridge.url}/${status}`, { method })
      const real = await request(`${bridge.url}/real/${status}`, { method })
      const theirs = await request(`${peer.url}/${status}`, { method })
      expect(ours.res.statusCode).toBe(Number(status))
      expect(theirs.res.statusCode).toBe(Number(status))
      expect(appHeaders(ours.res.headers)).toEqual(appHeaders(theirs.res.headers))
      expect(ours.res.headers['set-cookie']).toEqual(['a=1', 'b=2'])
      const { date: _d, ...headers } = ours.res.headers
      const { date: _d2, ...realHeaders } = real.res.headers
      expect(headers).toEqual(realHeaders)
      expect(ours.body.length).toBe(0)
      expect(theirs.body.length).toBe(0)
    }
  } finally {
    await bridge.close()
    await peer.close()
  }
})
