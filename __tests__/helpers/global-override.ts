import http from 'node:http'
import express from 'express'
import request from 'supertest'
import { fetchBridge, OriginalResponse, type FetchBridgeOptions } from '../../src/index.js'
import { honoApp } from './apps.js'
import { listen, type Running } from './transport.js'

export interface GlobalOverrideCase {
  /** The describe() title. */
  title: string
  /** Options passed to fetchBridge. */
  options?: FetchBridgeOptions
  /** Title of the test on globalThis.Response before/after fetchBridge() and the first request. */
  globalTitle: string
  /** What globalThis.Response must be once fetchBridge() returned. */
  globalAfter: unknown
  /** Whether Hono's plain bodies take the fast path. */
  fastPath: boolean
}

/**
 * The suite shared by global-override-on/off. Each caller stays its own test file because the
 * override patches globalThis and jest gives each file its own globals.
 */
export function describeGlobalOverride(c: GlobalOverrideCase): void {
  let upstream: Running
  beforeAll(async () => {
    upstream = await listen((_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.setHeader('content-type', 'text/x-upstream')
      res.setHeader('set-cookie', ['u1=1', 'u2=2'])
      res.end('from upstream')
    })
  })
  afterAll(() => upstream.close())

  const { hono, fastPath } = honoApp(() => upstream.url)
  const app = express()
  const before = { Response: globalThis.Response, Request: globalThis.Request, Headers: globalThis.Headers }
  app.use(fetchBridge(hono, c.options))
  // What fetchBridge() itself left, before any request (start-up code and tests see these).
  const atCreation = { Response: globalThis.Response, Request: globalThis.Request, Headers: globalThis.Headers }

  describe(c.title, () => {
    it(c.globalTitle, async () => {
      expect(before.Response).toBe(OriginalResponse)
      expect(atCreation.Response).toBe(c.globalAfter)
      expect(atCreation.Request === before.Request).toBe(c.globalAfter === OriginalResponse)
      expect(atCreation.Headers === before.Headers).toBe(c.globalAfter === OriginalResponse)
      await request(app).get('/text')
      expect(globalThis.Response).toBe(c.globalAfter)
    })

    it.each([
      ['/text', 200, 'text/plain;charset=UTF-8', 'hello'],
      ['/json', 201, 'application/json', '{"ok":true}'],
      ['/html', 200, 'text/html; charset=UTF-8', '<b>hi</b>'],
      ['/header', 200, 'text/plain;charset=UTF-8', 'with header'],
    ])(
      c.fastPath ? "Hono's %s takes the fast path" : "Hono's %s is served through the general path",
      async (path, status, type, body) => {
        const res = await request(app).get(path)
        expect(res.status).toBe(status)
        expect(res.headers['content-type']).toBe(type)
        const length = String(Buffer.byteLength(body))
        if (c.fastPath) expect(res.headers['content-length']).toBe(length)
        // The general path streams the real Response's body, so a length is optional there.
        else expect(res.headers['content-length'] ?? length).toBe(length)
        expect(res.text).toBe(body)
        expect(fastPath[path]).toBe(c.fastPath)
        if (path === '/header') expect(res.headers['x-set']).toBe('by-hono')
      },
    )

    it('a stream body is served', async () => {
      const res = await request(app).get('/stream')
      expect(res.text).toBe('streamed')
    })

    it('a real Response from fetch() goes through the general path', async () => {
      const res = await request(app).get('/fetch')
      expect(res.text).toBe('from upstream')
      expect(res.headers['content-type']).toBe('text/x-upstream')
      expect(res.headers['set-cookie']).toEqual(['u1=1', 'u2=2'])
      expect(fastPath['/fetch']).toBe(false)
    })

    it('responses from fetch() and new Response() are both instanceof Response', async () => {
      const res = await request(app).get('/instance')
      expect(res.body).toEqual({ fetched: true, constructed: true })
    })
  })
}
