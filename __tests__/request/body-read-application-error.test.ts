import type { IncomingMessage } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listen, request, waitFor } from '../helpers/transport.js'

// A request destroyed by the application with an error of its own (a size guard's
// `req.destroy(new Error('Payload too large'))`) makes the body read reject with that error, even
// when the whole body had arrived: not resolve with what was buffered, as when the client leaves.

const cases = ['json', 'text', 'body stream'] as const

it.each(cases)('c.req.%s rejects with the error the request was destroyed with', async (how) => {
  let outcome: string | undefined
  const hono = new Hono<{ Bindings: { incoming: IncomingMessage } }>()
  hono.post('/upload', async (c) => {
    const req = c.env.incoming
    await waitFor(() => req.complete, 2000)
    const read =
      how === 'json' ? c.req.json() : how === 'text' ? c.req.text() : new Response(c.req.raw.body).text()
    req.destroy(new Error('Payload too large'))
    try {
      outcome = `resolved ${JSON.stringify(await read)}`
    } catch (err) {
      outcome = `rejected ${(err as Error).message}`
    }
    return c.text('unreachable')
  })
  const server = await listen(express().use(fetchBridge(hono)))
  try {
    await request(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': 'application/json' } }, '{"a":1}').catch(() => undefined)
    await waitFor(() => outcome !== undefined, 2000)
    expect(outcome).toBe('rejected Payload too large')
  } finally {
    await server.close()
  }
})

it('a client that leaves after sending the whole body still leaves that body readable', async () => {
  let outcome: string | undefined
  const hono = new Hono<{ Bindings: { incoming: IncomingMessage } }>()
  hono.post('/upload', async (c) => {
    const req = c.env.incoming
    await waitFor(() => req.complete, 2000)
    req.socket.destroy()
    await waitFor(() => req.destroyed, 2000)
    outcome = await c.req.text()
    return c.text('gone')
  })
  const server = await listen(express().use(fetchBridge(hono)))
  try {
    await request(`${server.url}/upload`, { method: 'POST' }, 'all of it').catch(() => undefined)
    await waitFor(() => outcome !== undefined, 2000)
    expect(outcome).toBe('all of it')
  } finally {
    await server.close()
  }
})
