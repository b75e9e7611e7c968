import http from 'node:http'
import { Writable } from 'node:stream'
import express from 'express'
import { Hono } from 'hono'
import morgan from 'morgan'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'
import { listen } from '../helpers/transport.js'

/**
 * After the bridge answered, the headers that went out are visible on `res` (getHeaders, getHeader,
 * getHeaderNames, hasHeader), as loggers and metrics read them on 'finish'.
 */

function hono(): Hono {
  const app = new Hono()
  app.get('/json', (c) => c.json({ ok: true }))
  app.get('/cookies', (c) => {
    c.header('set-cookie', 'a=1', { append: true })
    c.header('set-cookie', 'b=2', { append: true })
    return c.text('two cookies')
  })
  app.get('/stream', () => {
    let n = 0
    return new Response(
      new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 5))
          if (n++ === 2) controller.close()
          else controller.enqueue(new TextEncoder().encode('chunk'))
        },
      }),
      { headers: { 'content-type': 'text/x-stream' } },
    )
  })
  return app
}

interface Seen {
  headers: http.OutgoingHttpHeaders
  type: unknown
  length: unknown
  names: string[]
  has: boolean
}

function record(res: http.ServerResponse, into: Seen[]): void {
  res.on('finish', () =>
    into.push({
      headers: res.getHeaders(),
      type: res.getHeader('content-type'),
      length: res.getHeader('Content-Length'),
      names: res.getHeaderNames(),
      has: res.hasHeader('content-type'),
    }),
  )
}

describe('headers visible on res after the answer', () => {
  it('node:http with nothing set on res before the bridge', async () => {
    const seen: Seen[] = []
    const bridge = fetchBridge(hono())
    const server = await listen((req: http.IncomingMessage, res: http.ServerResponse) => {
      record(res, seen)
      bridge(req, res)
    })
    try {
      const res = await request(server.url).get('/json')
      expect(res.body).toEqual({ ok: true })
      expect(seen[0].type).toBe('application/json')
      expect(seen[0].length).toBe('11')
      expect(seen[0].has).toBe(true)
      expect(seen[0].names).toEqual(expect.arrayContaining(['content-type', 'content-length']))
      expect(seen[0].headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '11' })

      await request(server.url).get('/cookies')
      expect(seen[1].headers['set-cookie']).toEqual(['a=1', 'b=2'])

      await request(server.url).get('/stream')
      expect(seen[2].type).toBe('text/x-stream')
    } finally {
      await server.close()
    }
  })

  it('Express without X-Powered-By, read on finish (response-time, metrics)', async () => {
    const seen: Seen[] = []
    const app = express()
    app.disable('x-powered-by')
    app.use((_req, res, next) => {
      record(res, seen)
      next()
    })
    app.use(fetchBridge(hono()))
    await request(app).get('/json')
    expect(seen[0].headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '11' })
  })

  it("morgan's :res[content-type] and :res[content-length] under Express without X-Powered-By", async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk).trim())
        done()
      },
    })
    const seen: Seen[] = []
    const app = express()
    app.disable('x-powered-by')
    app.use(morgan(':status :res[content-type] :res[content-length]', { stream: sink }))
    app.use((_req, res, next) => {
      record(res, seen)
      next()
    })
    app.use(fetchBridge(hono()))
    await request(app).get('/json')
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toEqual(['200 application/json 11'])
    expect(seen[0].type).toBe('application/json')
  })
})
