import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// A status or headers the app defines on a Response instance are what the app itself reads back
// (`res.status`), so they are what is sent: on the fast path (the bridge's Response) as on the general one.

function app() {
  const hono = new Hono()
  hono.get('/status', (c) => {
    const res = c.text('created')
    Object.defineProperty(res, 'status', { value: 201 })
    return res
  })
  hono.get('/headers', (c) => {
    const res = c.text('mine')
    Object.defineProperty(res, 'headers', { value: new Headers({ 'content-type': 'text/x-mine', 'x-own': '1' }) })
    return res
  })
  hono.get('/status-text', (c) => {
    const res = c.text('made', 201)
    Object.defineProperty(res, 'statusText', { get: () => 'Made Here' })
    return res
  })
  hono.get('/body', (c) => {
    const res = c.text('not this')
    Object.defineProperty(res, 'body', { value: new Blob(['this instead']).stream() })
    return res
  })
  return express().use(fetchBridge(hono))
}

describe("members defined on the bridge's Response", () => {
  it('a redefined status is sent', async () => {
    const res = await request(app()).get('/status')
    expect(res.status).toBe(201)
    expect(res.text).toBe('created')
  })

  it('redefined headers are sent', async () => {
    const res = await request(app()).get('/headers')
    expect(res.status).toBe(200)
    expect(res.headers['x-own']).toBe('1')
    expect(res.headers['content-type']).toBe('text/x-mine')
    expect(res.text).toBe('mine')
  })

  it('a redefined statusText is sent', async () => {
    const res = await request(app()).get('/status-text')
    expect(res.status).toBe(201)
    expect((res as unknown as { res: { statusMessage: string } }).res.statusMessage).toBe('Made Here')
    expect(res.text).toBe('made')
  })

  it('a redefined body is sent', async () => {
    const res = await request(app()).get('/body')
    expect(res.status).toBe(200)
    expect(res.text).toBe('this instead')
  })
})
