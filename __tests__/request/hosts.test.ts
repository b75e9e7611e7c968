import http from 'node:http'
import connect from 'connect'
import express from 'express'
import { Hono } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { listen, request, type Running } from '../helpers/transport.js'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const express4 = require('express4') as typeof express

function honoApp() {
  const hono = new Hono<{ Bindings: HttpBindings }>()
  hono.get('/hello', (c) => c.text(`hello ${c.req.query('name')}`))
  hono.post('/echo', async (c) => c.json({ got: await c.req.json() }))
  hono.get('/conninfo', (c) => {
    const info = getConnInfo(c)
    return c.json({ ...info.remote, sameRes: c.env.outgoing.req === c.env.incoming, url: c.env.incoming.url })
  })
  return hono
}

const hosts: Array<[string, () => http.RequestListener]> = [
  ['Express 5', () => express().use(fetchBridge(honoApp())) as unknown as http.RequestListener],
  ['Express 4', () => express4().use(fetchBridge(honoApp())) as unknown as http.RequestListener],
  ['Connect 3', () => connect().use(fetchBridge(honoApp()) as connect.NextHandleFunction) as unknown as http.RequestListener],
  ['node:http', () => {
    const bridge = fetchBridge(honoApp())
    return (req, res) => bridge(req, res)
  }],
]

describe.each(hosts)('%s', (_name, make) => {
  let s: Running
  beforeAll(async () => {
    s = await listen(make())
  })
  afterAll(() => s.close())

  it('GET with a query', async () => {
    const { res, body } = await request(`${s.url}/hello?name=w%C3%B6rld`)
    expect(res.statusCode).toBe(200)
    expect(body.toString()).toBe('hello wörld')
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength('hello wörld')))
  })

  it('POST with a JSON body', async () => {
    const { res, body } = await request(`${s.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' } }, '{"a":[1,2]}')
    expect(res.statusCode).toBe(200)
    expect(JSON.parse(body.toString())).toEqual({ got: { a: [1, 2] } })
  })

  it("env carries incoming/outgoing, so @hono/node-server's getConnInfo works", async () => {
    const { body } = await request(`${s.url}/conninfo?x=1`)
    expect(JSON.parse(body.toString())).toEqual({
      address: '127.0.0.1',
      port: expect.any(Number),
      addressType: 'IPv4',
      sameRes: true,
      url: '/conninfo?x=1',
    })
  })
})
