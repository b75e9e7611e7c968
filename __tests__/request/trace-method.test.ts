import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, request } from '../helpers/transport.js'

// A TRACE request (node:http parses it; the platform's Request refuses the method) that the app makes
// the bridge materialise as a platform Request: its method stays TRACE, nothing throws (ported from
// @hono/node-server's tests).

function app() {
  const hono = new Hono()
  hono.on('TRACE', '/trace', async (c) => {
    const copy = new Request(c.req.raw)
    const clone = c.req.raw.clone()
    return c.json({ method: c.req.method, raw: c.req.raw.method, copy: copy.method, clone: clone.method, cloneOfClone: clone.clone().method })
  })
  hono.get('/get', (c) => c.json({ copy: new Request(c.req.raw).method, clone: c.req.raw.clone().method }))
  return hono
}

// false first: the globals, once installed, stay for the file.
describe.each([false, true])('overrideGlobalObjects: %s', (overrideGlobalObjects) => {
  it('new Request(c.req.raw) and clone() of a TRACE request keep TRACE', async () => {
    const server = await listen(express().use(fetchBridge(app(), { overrideGlobalObjects })))
    try {
      const res = await request(`${server.url}/trace`, { method: 'TRACE' })
      expect(res.res.statusCode).toBe(200)
      const json = JSON.parse(res.body.toString())
      expect(json).toMatchObject({ method: 'TRACE', raw: 'TRACE', clone: 'TRACE', cloneOfClone: 'TRACE' })
      // The platform's own constructor (no global override) reads the slot it was built with.
      expect(json.copy).toBe(overrideGlobalObjects ? 'TRACE' : 'GET')
      const get = await request(`${server.url}/get`)
      expect(JSON.parse(get.body.toString())).toEqual({ copy: 'GET', clone: 'GET' })
    } finally {
      await server.close()
    }
  })
})
