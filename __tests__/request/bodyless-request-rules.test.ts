import express from 'express'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'

// bodyUsed, repeated reads and clone() follow the platform's rules: the same script run on the lazy
// Request and on a real `new Request()` of the same method and body gives the same outcomes.

type Step = (r: Request) => unknown | Promise<unknown>

const steps: Record<string, Step> = {
  text: (r) => r.text(),
  arrayBuffer: async (r) => Buffer.from(await r.arrayBuffer()).toString(),
  blob: async (r) => (await r.blob()).size,
  json: (r) => r.json(),
  bodyUsed: (r) => r.bodyUsed,
  bodyIsNull: (r) => r.body === null,
  clone: (r) => r.clone().text(),
  stream: async (r) => {
    if (r.body === null) return 'null'
    const reader = r.body.getReader()
    let n = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return n
      n += value.byteLength
    }
  },
}

const scripts: string[][] = [
  ['text', 'bodyUsed', 'text', 'bodyUsed'],
  ['text', 'clone', 'bodyUsed'],
  ['arrayBuffer', 'blob', 'text'],
  ['clone', 'text', 'text'],
  ['text', 'bodyIsNull', 'stream'],
  ['stream', 'bodyUsed', 'text', 'clone'],
  ['bodyIsNull', 'bodyUsed', 'json'],
]

async function run(r: Request, script: string[]): Promise<unknown[]> {
  const out: unknown[] = []
  for (const name of script) {
    try {
      out.push(await steps[name](r))
    } catch (err) {
      out.push(`${(err as Error).name}`)
    }
  }
  return out
}

describe.each([
  ['GET', undefined],
  ['HEAD', undefined],
  ['DELETE', undefined],
  ['POST', '{"a":1}'],
  ['PUT', '{"b":2}'],
])('%s', (method, body) => {
  it.each(scripts.map((s) => [s.join(' → '), s]))('%s', async (_title, script) => {
    const app = express()
    app.use(
      fetchBridge(async (lazy: Request) => {
        const real = new Request(lazy.url, { method, body, headers: body === undefined ? undefined : { 'content-type': 'application/json' } })
        const outcomes = { lazy: await run(lazy, script as string[]), real: await run(real, script as string[]) }
        return new Response(JSON.stringify(outcomes), { headers: { 'x-outcomes': encodeURIComponent(JSON.stringify(outcomes)) } })
      }),
    )
    let req = request(app)[method.toLowerCase() as 'get'](`/`)
    if (body !== undefined) req = req.set('content-type', 'application/json').send(body)
    const res = await req
    const { lazy, real } = JSON.parse(decodeURIComponent(res.headers['x-outcomes']))
    expect(lazy).toEqual(real)
  })
})
