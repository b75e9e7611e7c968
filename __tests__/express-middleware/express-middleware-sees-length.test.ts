import compression from 'compression'
import express from 'express'
import morgan from 'morgan'
import { Hono } from 'hono'
import { expressMiddleware } from '../../src/index.js'
import { ALL_HOSTS, host, type Hosted } from '../helpers/hono-hosts.js'
import { listen, request } from '../helpers/transport.js'

// Middleware that decides when the head is written (compression's 1 KiB threshold, through
// on-headers) or logs the length after (morgan) sees a fixed Hono body's Content-Length on every
// host: @hono/node-server's serve gives that length to Node internally, not as a header.

const SMALL = 'small one'
const LARGE = 'x'.repeat(4096)

it('Express alone: HEAD of a compressible body through compression() has the GET body\'s length', async () => {
  const alone = await listen(express().use(compression()).get('/large', (_req, res) => void res.type('text').send(LARGE)))
  try {
    const { res } = await request(alone.url + '/large', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })
    expect([res.headers['content-length'], res.headers['content-encoding']]).toEqual([String(LARGE.length), undefined])
  } finally {
    await alone.close()
  }
})

describe.each(ALL_HOSTS)('on %s', (name) => {
  const logged: string[] = []
  let hosted: Hosted
  beforeAll(async () => {
    const hono = new Hono()
    hono.use(
      expressMiddleware(
        { app: false },
        morgan(':url :res[content-length]', { stream: { write: (line: string) => void logged.push(line.trim()) } }),
        compression(),
      ),
    )
    hono.get('/small', (c) => c.text(SMALL))
    hono.get('/large', (c) => c.text(LARGE))
    hosted = await host(name, hono)
  })
  afterAll(() => hosted.close())

  it('a body below the threshold goes out as it is, with its length, and morgan logs that length', async () => {
    const { res, body } = await request(hosted.url + '/small', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe(String(SMALL.length))
    expect(body.toString()).toBe(SMALL)
    expect(logged).toContain(`/small ${SMALL.length}`)
  })

  it('HEAD of a body above it answers as Express does: not compressed, with the length of the GET body', async () => {
    for (const path of ['/large', '/small']) {
      const { res, body } = await request(hosted.url + path, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers['content-length']).toBe(String(path === '/large' ? LARGE.length : SMALL.length))
      expect(body.length).toBe(0)
    }
  })

  it('a body above it is still compressed', async () => {
    const { res } = await request(hosted.url + '/large', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBe('gzip')
  })
})
