import http, { type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { after } from '../helpers/transport.js'

function frontDoor() {
  const hono = new Hono()
  hono.get('/moved', (c) => c.text('hono moved'))
  const app = express()
  app.get('/legacy', (_req, res) => {
    res.send('express legacy')
  })
  return fetchBridge(hono, { fallback: app })
}

/** GET over a keep-alive agent; the socket stays open (idle) afterwards. */
function get(agent: http.Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve(`${res.statusCode} ${body}`))
      })
      .on('error', reject)
  })
}

const closeServer = (server: Server) => new Promise<unknown>((resolve) => server.close(resolve))

describe('handler.listen()', () => {
  const servers: Server[] = []
  const agents: http.Agent[] = []
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.destroy()
    for (const server of servers.splice(0)) {
      if (server.listening) {
        server.closeAllConnections()
        await closeServer(server)
      }
    }
  })

  /** Track `server` for cleanup, wait until it listens, and give a keep-alive agent for it. */
  async function started(server: Server) {
    servers.push(server)
    await once(server, 'listening')
    const agent = new http.Agent({ keepAlive: true })
    agents.push(agent)
    return { agent, port: (server.address() as AddressInfo).port }
  }

  it('creates an http.Server, listens with the arguments of server.listen() and returns it', async () => {
    let called = false
    const server = frontDoor().listen(0, '127.0.0.1', () => (called = true))
    expect(server).toBeInstanceOf(http.Server)
    const { agent, port } = await started(server)
    expect(called).toBe(true)
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1')
    expect(await get(agent, port, '/moved')).toBe('200 hono moved')
    expect(await get(agent, port, '/legacy')).toBe('200 express legacy')
  })

  it('accepts an options object, like server.listen()', async () => {
    const server = frontDoor().listen({ port: 0, host: '127.0.0.1' })
    servers.push(server)
    await once(server, 'listening')
    expect((server.address() as AddressInfo).port).toBeGreaterThan(0)
  })

  it("reports a busy port through the server's 'error' event", async () => {
    const first = frontDoor().listen(0, '127.0.0.1')
    servers.push(first)
    await once(first, 'listening')
    const second = frontDoor().listen((first.address() as AddressInfo).port, '127.0.0.1')
    servers.push(second)
    const [err] = (await once(second, 'error')) as [NodeJS.ErrnoException]
    expect(err.code).toBe('EADDRINUSE')
  })

  it('close() completes while keep-alive connections are idle (no need to wait for their timeout)', async () => {
    const server = frontDoor().listen(0, '127.0.0.1')
    const { agent, port } = await started(server)
    expect(await get(agent, port, '/moved')).toBe('200 hono moved')
    expect(await get(agent, port, '/legacy')).toBe('200 express legacy')
    // Both answers reused one socket, which now sits idle in the agent.
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1)
    // The keep-alive timeout is 5 s; close() must not wait for it.
    const outcome = await Promise.race([closeServer(server).then(() => 'closed'), after(2000, 'still open')])
    expect(outcome).toBe('closed')
    expect(server.listening).toBe(false)
  })

  it('is there in middleware mode too (a bridge without fallback answers 404 for what Hono lacks)', async () => {
    const hono = new Hono()
    hono.get('/moved', (c) => c.text('hono moved'))
    const { agent, port } = await started(fetchBridge(hono).listen(0, '127.0.0.1'))
    expect(await get(agent, port, '/moved')).toBe('200 hono moved')
    expect(await get(agent, port, '/legacy')).toBe('404 Cannot GET /legacy')
  })
})
