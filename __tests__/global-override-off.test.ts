import http from 'node:http'
import express from 'express'
import request from 'supertest'
import { fetchBridge, OriginalResponse } from '../src/index.js'
import { honoApp } from './helpers/apps.js'
import { listen, type Running } from './helpers/server.js'

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
app.use(fetchBridge(hono, { overrideGlobalObjects: false }))

describe('overrideGlobalObjects: false', () => {
  test('leaves globalThis.Response untouched', async () => {
    expect(globalThis.Response).toBe(OriginalResponse)
    await request(app).get('/text')
    expect(globalThis.Response).toBe(OriginalResponse)
  })

  test.each([
    ['/text', 200, 'text/plain;charset=UTF-8', 'hello'],
    ['/json', 201, 'application/json', '{"ok":true}'],
    ['/html', 200, 'text/html; charset=UTF-8', '<b>hi</b>'],
    ['/header', 200, 'text/plain;charset=UTF-8', 'with header'],
  ])("Hono's %s is served through the general path", async (path, status, type, body) => {
    const res = await request(app).get(path)
    expect(res.status).toBe(status)
    expect(res.headers['content-type']).toBe(type)
    // The general path streams the real Response's body.
    expect(res.headers['content-length'] ?? String(Buffer.byteLength(body))).toBe(String(Buffer.byteLength(body)))
    expect(res.text).toBe(body)
    expect(fastPath[path]).toBe(false)
    if (path === '/header') expect(res.headers['x-set']).toBe('by-hono')
  })

  test('a stream body is served', async () => {
    const res = await request(app).get('/stream')
    expect(res.text).toBe('streamed')
  })

  test('a real Response from fetch() goes through the general path', async () => {
    const res = await request(app).get('/fetch')
    expect(res.text).toBe('from upstream')
    expect(res.headers['content-type']).toBe('text/x-upstream')
    expect(res.headers['set-cookie']).toEqual(['u1=1', 'u2=2'])
    expect(fastPath['/fetch']).toBe(false)
  })

  test('responses from fetch() and new Response() are both instanceof Response', async () => {
    const res = await request(app).get('/instance')
    expect(res.body).toEqual({ fetched: true, constructed: true })
  })
})
