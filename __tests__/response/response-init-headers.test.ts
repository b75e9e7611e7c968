import express from 'express'
import fc from 'fast-check'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge, LightResponse, OriginalResponse } from '../../src/index.js'
import { LightHeaders } from '../../src/core/light-headers.js'
import { PlatformHeaders, PlatformRequest } from '../../src/core/platform.js'
import { names, values } from '../helpers/headers-ops.js'

// A Response's init headers given as a record or a pair list are checked when the Response is built,
// as the platform's constructor checks them: the app's own error handler sees a bad one (not Node,
// when the answer is written), and a good one arrives as the platform would have kept it.

type Ctor = new (body?: BodyInit | null, init?: ResponseInit) => Response
const Light = LightResponse as unknown as Ctor

const inits: fc.Arbitrary<HeadersInit> = fc.oneof(
  fc.array(fc.tuple(names, values), { maxLength: 6 }),
  fc.dictionary(names, values, { maxKeys: 6 }),
)

type Outcome = { headers: Array<[string, string]> } | { threw: string; message: string }

function outcome(make: () => Response): Outcome {
  try {
    return { headers: [...make().headers] }
  } catch (err) {
    return { threw: (err as Error).constructor.name, message: (err as Error).message }
  }
}

/** Header lines as the client sees them: names in lower case, repeated names joined, Set-Cookie lines apart. */
function meaning(lines: Array<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of lines) {
    const key = name.toLowerCase()
    if (SERVER_ADDED.has(key)) continue
    const had = out[key]
    if (key === 'set-cookie') out[key] = [...((had as string[] | undefined) ?? []), value]
    else out[key] = had === undefined ? value : `${had as string}, ${value}`
  }
  return out
}
const SERVER_ADDED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-powered-by'])

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i], raw[i + 1]])
  return out
}

it('checks a record or pair-list init exactly as the platform Response does', () => {
  fc.assert(
    fc.property(inits, fc.constantFrom('text', null), (init, body) => {
      expect(outcome(() => new Light(body, { headers: init }))).toEqual(
        outcome(() => new OriginalResponse(body, { headers: init })),
      )
    }),
    { numRuns: 400 },
  )
})

it('through the bridge, a bad init reaches the app onError and a good one arrives as the platform keeps it', async () => {
  let init: HeadersInit = {}
  const seen: string[] = []
  const hono = new Hono()
  hono.get('/r', () => new Response('body', { headers: init }))
  hono.onError((err, c) => {
    seen.push(err.message)
    return c.text('from onError', 500)
  })
  const app = express()
  app.use(fetchBridge(hono))

  await fc.assert(
    fc.asyncProperty(inits, async (given) => {
      // Node writes a header block ahead of a string body in the body's encoding, UTF-8 (res.end(string),
      // as @hono/node-server and Express's res.send do too): a value with a character from 0x80 to 0xFF
      // arrives as two bytes there. A known difference of Node's, left out of this comparison.
      fc.pre(!JSON.stringify(given).match(/[\x80-\xff]/))
      init = given
      seen.length = 0
      const expected = outcome(() => new OriginalResponse('body', { headers: given }))
      const res = await request(app).get('/r')
      if ('threw' in expected) {
        expect([res.status, res.text, seen]).toEqual([500, 'from onError', [expected.message]])
      } else {
        expect([res.status, res.text, seen]).toEqual([200, 'body', []])
        expect(meaning(pairs((res as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders))).toEqual(meaning(expected.headers))
      }
    }),
    { numRuns: 60 },
  )
})

it('refuses headers: null as the platform does, and takes headers: undefined as no headers', () => {
  for (const headers of [null, undefined]) {
    const init = { headers } as unknown as ResponseInit
    expect(outcome(() => new Light('x', init))).toEqual(outcome(() => new OriginalResponse('x', init)))
  }
  expect(outcome(() => new Light('x', { headers: null } as unknown as ResponseInit))).toHaveProperty('threw', 'TypeError')
})

/** What `for…in` lists on an object, in order. */
function enumerated(o: object): string[] {
  const keys: string[] = []
  for (const key in o) keys.push(key)
  return keys
}

it('lists the platform members in for…in, in its order, for each class standing in for one', async () => {
  expect(enumerated(new LightHeaders({ a: '1' }))).toEqual(enumerated(new PlatformHeaders({ a: '1' })))
  expect(enumerated(new Light('x'))).toEqual(enumerated(new OriginalResponse('x')))
  // The static operations too (Response.json, redirect, error).
  expect(enumerated(Light)).toEqual(enumerated(OriginalResponse))
  let lazy: Request | undefined
  const hono = new Hono().get('/', (c) => {
    lazy = c.req.raw
    return c.body(null, 204)
  })
  await request(express().use(fetchBridge(hono))).get('/').expect(204)
  expect(enumerated(lazy!)).toEqual(enumerated(new PlatformRequest('http://localhost/')))
})

it('fails as Hono alone does when c.body is given a Headers object instead of a record', async () => {
  // Hono walks the record with for…in: over a Headers it meets the methods and throws, so the
  // headers are never silently dropped.
  const hono = new Hono().get('/', (c) => c.body('x', 200, new Headers({ 'x-m': '1' }) as unknown as Record<string, string>))
  const alone = await hono.request('/', {}, {})
  const bridged = await request(express().use(fetchBridge(hono))).get('/')
  expect(alone.status).toBe(500)
  expect([bridged.status, bridged.headers['x-m']]).toEqual([alone.status, undefined])
})
