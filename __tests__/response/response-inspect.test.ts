import { inspect } from 'node:util'
import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge, LightResponse } from '../../src/index.js'
import { lightState } from '../../src/response/response.js'

/** console.log / util.inspect of a LightResponse: truthful, and without building a real Response. */

describe('inspecting a LightResponse', () => {
  it('shows status, headers and the kind and size of the body', () => {
    const res = new LightResponse('hello', { status: 201, headers: { 'x-a': '1' } })
    const shown = inspect(res)
    expect(shown).toMatch(/status: 201/)
    expect(shown).toMatch(/'x-a': '1'/)
    expect(shown).toMatch(/'content-type': 'text\/plain;charset=UTF-8'/)
    expect(shown).toMatch(/body: \[string: 5 bytes\]/)
    expect(shown).toMatch(/ok: true/)
    expect(shown).not.toMatch(/undefined/)
    expect(lightState(res)).toBeDefined()
  })

  it.each([
    ['bytes', () => new LightResponse(new Uint8Array(3)), /body: \[Uint8Array: 3 bytes\]/],
    ['a Blob', () => new LightResponse(new Blob(['abcd'], { type: 'text/x' })), /body: \[Blob: 4 bytes, text\/x\]/],
    ['a stream', () => new LightResponse(new ReadableStream()), /body: ReadableStream \{ locked: false \}/],
    ['no body', () => new LightResponse(null, { status: 204 }), /body: null/],
  ])('describes %s', (_name, make, pattern) => {
    const res = make()
    expect(inspect(res)).toMatch(pattern)
    expect(lightState(res)).toBeDefined()
  })

  it('shows the real Response once there is one', async () => {
    const res = new LightResponse('hello')
    await res.text()
    expect(inspect(res)).toMatch(/bodyUsed: true/)
  })

  it('console.log in a Hono handler keeps the answer on the fast path', async () => {
    const logged: string[] = []
    let final: Response | undefined
    const hono = new Hono()
    hono.use(async (c, next) => {
      await next()
      logged.push(inspect(c.res))
      final = c.res
    })
    hono.get('/', (c) => c.json({ ok: true }))
    const app = express()
    app.use(fetchBridge(hono))
    const res = await request(app).get('/')
    expect(res.body).toEqual({ ok: true })
    expect(res.headers['content-length']).toBe('11')
    expect(logged[0]).toMatch(/body: \[string: 11 bytes\]/)
    expect(lightState(final)).toBeDefined()
  })
})
