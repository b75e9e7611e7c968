import express from 'express'
import request from 'supertest'
import { fetchBridge, installGlobalResponse, LightResponse, OriginalResponse } from '../../src/index.js'
import { lightState } from '../../src/response/response.js'
import { LightHeaders } from '../../src/core/light-headers.js'

type Ctor = new (body?: BodyInit | null, init?: ResponseInit) => Response
const Light = LightResponse as unknown as Ctor & typeof Response
const Real = OriginalResponse

/** Error class name (the platform's errors come from another realm than jest's globals). */
function errorName(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return (err as Error).constructor.name
  }
  return undefined
}
async function rejectionName(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
  } catch (err) {
    return (err as Error).constructor.name
  }
  return undefined
}
const unboundary = (text: string) => text.replace(/formdata-undici-\d+/g, 'formdata-undici-N')

const bodies: Array<[string, () => BodyInit | null]> = [
  ['string', () => 'héllo'],
  ['empty string', () => ''],
  ['Uint8Array', () => new Uint8Array([104, 105])],
  ['ArrayBuffer', () => new Uint8Array([1, 2, 3]).buffer],
  ['DataView', () => new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2)],
  ['Blob', () => new Blob(['{"a":1}'], { type: 'application/json' })],
  ['URLSearchParams', () => new URLSearchParams('a=1&b=2')],
  [
    'ReadableStream',
    () => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) }),
  ],
  [
    'FormData',
    () => {
      const f = new FormData()
      f.append('k', 'v')
      return f
    },
  ],
  ['null', () => null],
]

const inits: Array<ResponseInit | undefined> = [
  undefined,
  { status: 201, statusText: 'Made', headers: { 'X-A': '1' } },
  {
    status: 404,
    headers: [
      ['content-type', 'text/custom'],
      ['x-b', '2'],
    ],
  },
  { headers: new Headers({ 'set-cookie': 'a=1' }) },
  // The bridge's own Headers (the global one once installed) is copied as one, the body's type added.
  {
    headers: new LightHeaders([
      ['x-c', ' 3 '],
      ['set-cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ]),
  },
  { status: 202, headers: new LightHeaders({ 'content-type': 'text/own', vary: 'a' }) },
]

async function snapshot(res: Response) {
  const headers = [...res.headers].map(([k, v]) => [k, unboundary(v)])
  const out = {
    status: res.status,
    ok: res.ok,
    statusText: res.statusText,
    type: res.type,
    url: res.url,
    redirected: res.redirected,
    headers,
    bodyUsed: res.bodyUsed,
    hasBody: res.body !== null,
    tag: Object.prototype.toString.call(res),
  }
  const clone = res.clone()
  const text = unboundary(await res.text())
  return { ...out, text, bodyUsedAfter: res.bodyUsed, cloneText: unboundary(await clone.text()) }
}

describe('LightResponse behaves like the real Response', () => {
  for (const [name, body] of bodies) {
    for (const init of inits) {
      it(`${name} body, init ${JSON.stringify(init)}`, async () => {
        const light = new Light(body(), init)
        const real = new Real(body(), init)
        expect(light instanceof Response).toBe(true)
        expect(light instanceof Real).toBe(true)
        expect(await snapshot(light)).toEqual(await snapshot(real))
      })
    }
  }

  it.each(['text', 'json', 'arrayBuffer', 'blob', 'bytes'] as const)(
    '%s() gives what the real one gives',
    async (method) => {
      const make = (C: Ctor) => new C('{"x":[1,2]}', { headers: { 'content-type': 'application/json' } })
      const light = make(Light)
      const real = make(Real)
      const a: any = await (light as any)[method]()
      const b: any = await (real as any)[method]()
      if (a instanceof Blob) {
        expect(a.type).toBe(b.type)
        expect(await a.text()).toBe(await b.text())
      } else if (a instanceof ArrayBuffer || a instanceof Uint8Array) {
        expect(Buffer.from(a as ArrayBuffer).equals(Buffer.from(b))).toBe(true)
        expect(Object.prototype.toString.call(a)).toBe(Object.prototype.toString.call(b))
      } else {
        expect(a).toEqual(b)
      }
      expect(light.bodyUsed).toBe(true)
      expect(await rejectionName((light as any)[method]())).toBe('TypeError')
      expect(await rejectionName((real as any)[method]())).toBe('TypeError')
    },
  )

  it('formData() parses url-encoded and multipart bodies', async () => {
    const params = await new Light(new URLSearchParams('a=1&a=2')).formData()
    expect(params.getAll('a')).toEqual(['1', '2'])
    const form = new FormData()
    form.append('f', new Blob(['data'], { type: 'text/plain' }), 'f.txt')
    const parsed = await new Light(await new Real(form).blob()).formData()
    expect(await (parsed.get('f') as File).text()).toBe('data')
  })

  it('body is a stream the first time and bodyUsed tracks reading it', async () => {
    const light = new Light('abc')
    const reader = light.body!.getReader()
    expect((await reader.read()).value).toEqual(new TextEncoder().encode('abc'))
    expect(light.bodyUsed).toBe(true)
    expect(errorName(() => light.clone())).toBe('TypeError')
  })

  it('Response.json', async () => {
    for (const args of [
      [{ a: 1 }],
      [[1, 'x'], { status: 202, headers: { 'x-j': '1' } }],
      ['s', { headers: { 'content-type': 'application/vnd+json' } }],
    ] as const) {
      const light = (Light as any).json(...args) as Response
      const real = (Real as any).json(...args) as Response
      expect(light instanceof Response).toBe(true)
      expect(await snapshot(light)).toEqual(await snapshot(real))
    }
    expect(errorName(() => Light.json(undefined))).toBe('TypeError')
    expect(errorName(() => Real.json(undefined))).toBe('TypeError')
    expect(errorName(() => Light.json(1n))).toBe('TypeError')
  })

  it("has the platform's constructor lengths (every argument optional), for Headers too", () => {
    expect(Light.length).toBe(Real.length)
    const PlatformHeaders = Object.getPrototypeOf(LightHeaders.prototype).constructor as typeof Headers
    expect(LightHeaders.length).toBe(PlatformHeaders.length)
    expect(Light.json.length).toBe(Real.json.length)
    expect(Light.redirect.length).toBe(Real.redirect.length)
    // The installed Request and fetch too (their wrappers take rest parameters).
    const { Request: PlatformRequest, fetch: platformFetch } = globalThis
    fetchBridge(() => new Light('installs the globals'))
    expect(globalThis.Request).not.toBe(PlatformRequest)
    expect(globalThis.Request.length).toBe(PlatformRequest.length)
    expect(globalThis.fetch.length).toBe(platformFetch.length)
  })

  it('Response.redirect goes out as the platform would send it', async () => {
    const app = express()
    app.use(fetchBridge(() => Light.redirect('http://x.test/next', 307)))
    const res = await request(app).get('/')
    expect(res.status).toBe(307)
    expect(res.headers.location).toBe('http://x.test/next')
    expect(res.headers['content-length']).toBe('0')
    expect(res.text).toBe('')
  })

  it('Response.redirect', async () => {
    for (const args of [['http://example.com/a b'], [new URL('https://x.test/p?q'), 307]] as const) {
      const light = (Light as any).redirect(...args) as Response
      const real = (Real as any).redirect(...args) as Response
      expect(await snapshot(light)).toEqual(await snapshot(real))
    }
    expect(errorName(() => Light.redirect('http://x.test', 200))).toBe('RangeError')
    expect(errorName(() => Real.redirect('http://x.test', 200))).toBe('RangeError')
    expect(errorName(() => Light.redirect('not a url'))).toBe('TypeError')
    expect(errorName(() => Real.redirect('not a url'))).toBe('TypeError')
    // One of the installed class, with the platform's immutable headers.
    expect(Object.getPrototypeOf(Light.redirect('http://x.test/'))).toBe(Light.prototype)
    for (const change of ['set', 'append', 'delete'] as const) {
      const attempt = (R: typeof Response) => () => R.redirect('http://x.test/').headers[change]('x-a', '1')
      expect(errorName(attempt(Light))).toBe('TypeError')
      expect(errorName(attempt(Real))).toBe('TypeError')
    }
    // A relative URL: the platform's message, the URL parser's error as its cause.
    const failure = (fn: () => unknown) => {
      try {
        fn()
      } catch (err) {
        return [(err as Error).message, ((err as Error).cause as Error | undefined)?.message]
      }
    }
    expect(failure(() => Light.redirect('/rel'))).toEqual(failure(() => Real.redirect('/rel')))
  })

  it('Response.error', () => {
    const light = Light.error()
    const real = Real.error()
    expect(light instanceof Response).toBe(true)
    expect([light.type, light.status, light.ok, light.statusText]).toEqual([
      real.type,
      real.status,
      real.ok,
      real.statusText,
    ])
  })

  it('constructor errors match', () => {
    const cases: Array<[BodyInit | null, ResponseInit]> = [
      [null, { status: 99 }],
      [null, { status: 600 }],
      ['x', { status: 204 }],
      ['x', { status: 304 }],
      ['x', { statusText: 'bad\nline' }],
      ['x', { statusText: 'ünicode ✓' }],
      ['x', { headers: { 'bad name': 'x' } }],
      ['x', { headers: [['only-one']] as any }],
    ]
    for (const [body, init] of cases) {
      let realError: unknown
      try {
        new Real(body, init)
      } catch (err) {
        realError = err
      }
      let lightError: unknown
      try {
        const light = new Light(body, init)
        // Header validation may happen lazily, but must happen by the time headers are read.
        void light.headers
      } catch (err) {
        lightError = err
      }
      expect([init, (lightError as Error)?.constructor?.name]).toEqual([init, (realError as Error)?.constructor?.name])
      expect(realError).toBeDefined()
    }
    expect(errorName(() => new Light(null, { status: 99 }))).toBe('RangeError')
    expect(errorName(() => new Light(null, { status: 600 }))).toBe('RangeError')
    expect(errorName(() => new Light('x', { status: 204 }))).toBe('TypeError')
  })

  it('a locked stream is rejected like the real one', () => {
    const stream = new ReadableStream()
    stream.getReader()
    expect(errorName(() => new Real(stream))).toBe('TypeError')
    expect(errorName(() => new Light(stream))).toBe('TypeError')
  })

  it('headers mutated after construction are seen, including a second Set-Cookie', () => {
    const light = new Light('x', { headers: { 'set-cookie': 'a=1' } })
    light.headers.append('Set-Cookie', 'b=2')
    light.headers.set('x-late', 'yes')
    expect(light.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    const text = light.clone()
    expect(text.headers.get('x-late')).toBe('yes')
  })

  it('instanceof Response holds for real responses when the global is overridden', async () => {
    installGlobalResponse()
    expect(globalThis.Response).toBe(LightResponse)
    expect(new Real('x') instanceof Response).toBe(true)
    expect(Real.error() instanceof Response).toBe(true)
    expect(Real.json({}) instanceof Response).toBe(true)
    expect(new Response('x') instanceof Real).toBe(true)
    expect({} instanceof Response).toBe(false)
    expect((null as any) instanceof Response).toBe(false)
    expect(Object.create(Real.prototype) instanceof Response).toBe(true)
    // A subclass of the global still works.
    class Sub extends Response {}
    const sub = new Sub('sub', { status: 202 })
    expect(sub instanceof Sub).toBe(true)
    expect(sub instanceof Response).toBe(true)
    expect(new Response('plain') instanceof Sub).toBe(false)
    expect(new Real('plain') instanceof Sub).toBe(false)
    expect(sub.status).toBe(202)
    expect(await sub.text()).toBe('sub')
  })
})

describe('reading status and headers keeps the fast path', () => {
  it('status, ok, statusText and headers do not materialise a real Response', () => {
    const res = new Light('x', { status: 201, headers: { a: 'b' } })
    expect(lightState(res)).toBeDefined()
    expect([
      res.status,
      res.ok,
      res.statusText,
      res.headers.get('a'),
      res.type,
      res.url,
      res.redirected,
      res.bodyUsed,
    ]).toEqual([201, true, '', 'b', 'default', '', false, false])
    res.headers.set('c', 'd')
    expect(lightState(res)).toBeDefined()
    // The body stream and clone() keep the fixed body too, until someone reads the stream.
    void res.clone()
    const stream = res.body!
    expect(lightState(res)).toBeDefined()
    void stream.getReader().read()
    expect(lightState(res)).toBeUndefined()
  })

  it.each([
    ['clone()', (r: Response) => r.clone()],
    ['body', (r: Response) => r.body],
  ])('%s keeps the fast path and the result is still served', async (_name, use) => {
    let seen: Response | undefined
    const app = express()
    app.use(
      fetchBridge(() => {
        const res = new Light('served', { status: 203, headers: { 'x-a': '1' } })
        res.headers.set('x-b', '2')
        void use(res)
        seen = res
        return res
      }),
    )
    const res = await request(app).get('/')
    expect(lightState(seen)).toBeDefined()
    expect(res.status).toBe(203)
    expect(res.headers['content-length']).toBe('6')
    expect(res.text).toBe('served')
    expect(res.headers['x-a']).toBe('1')
    expect(res.headers['x-b']).toBe('2')
  })

  it('a header set after status was read is sent (fast path)', async () => {
    const app = express()
    let state: unknown
    app.use(
      fetchBridge(() => {
        const res = new Light('fast', { status: 202 })
        if (res.ok && res.status === 202 && res.statusText === '') res.headers.append('set-cookie', 'late=1')
        res.headers.append('set-cookie', 'later=2')
        state = lightState(res)
        return res
      }),
    )
    const res = await request(app).get('/')
    expect(state).toBeDefined()
    expect(res.status).toBe(202)
    expect(res.headers['set-cookie']).toEqual(['late=1', 'later=2'])
    expect(res.headers['content-type']).toBe('text/plain;charset=UTF-8')
  })
})

describe('reading the init, as the platform reads the dictionary', () => {
  // Each member read once and converted (headers first on Node 24, status first on Node 20 and 22),
  // then status and statusText checked, then the headers filled.
  const outcome = (Kind: typeof Response, make: (log: string[]) => unknown): string[] => {
    const log: string[] = []
    try {
      const r = new Kind('x', make(log) as ResponseInit)
      log.push(`${r.status} ${r.statusText} ${JSON.stringify([...r.headers])}`)
    } catch (err) {
      log.push(`${(err as Error).constructor.name}: ${(err as Error).message.replace('contructor', 'constructor')}`)
    }
    return log
  }
  const getters = (log: string[], values: Record<string, unknown>) => {
    const init = {}
    for (const key of Object.keys(values))
      Object.defineProperty(init, key, {
        enumerable: true,
        get: () => {
          log.push(key)
          return values[key]
        },
      })
    return init
  }
  const cases: Array<(log: string[]) => unknown> = [
    (log) => getters(log, { status: 201, statusText: 'Made', headers: { a: '1' } }),
    (log) => getters(log, { status: 99, headers: 'not an init' }),
    (log) => getters(log, { status: 99, headers: [['a']] }),
    (log) => getters(log, { statusText: '\n', headers: [['a']] }),
    (log) => getters(log, { status: 200, headers: [['a'], ['bad name', 'v']] }),
    (log) => getters(log, { statusText: 'a\u0100' }),
    (log) => getters(log, { headers: new LightHeaders({ b: '2' }) }),
    (log) => Object.assign(() => {}, getters(log, { status: 202, headers: { f: '1' } })),
  ]
  // A string past 0xFF among the headers is the platform's error, met before status is checked (the
  // bridge checks such strings later, with the names, so reads status first: only the error is compared).
  const errorsOnly: Array<(log: string[]) => unknown> = [
    (log) => getters(log, { status: 99, headers: { '\u20ac': '1' } }),
    (log) => getters(log, { status: 99, headers: [['a', '\u0100']] }),
    (log) => getters(log, { statusText: '\n', headers: { a: '\u0100' } }),
  ]

  it('gives the platform its results, errors and reads', () => {
    // Node 20 and 22 read status and statusText before headers; Node 24 reads them in WebIDL's order,
    // as the bridge does everywhere: where the platform does too, every read and effect matches.
    const webidlOrder = outcome(Real, cases[0])[0] === 'headers'
    for (const make of cases) {
      const light = outcome(Light, make)
      const real = outcome(Real, make)
      expect(light[light.length - 1]).toEqual(real[real.length - 1])
      if (webidlOrder) expect(light).toEqual(real)
    }
    for (const make of errorsOnly) expect(outcome(Light, make).pop()).toEqual(outcome(Real, make).pop())
    expect(outcome(Light, cases[0])).toEqual([
      'headers',
      'status',
      'statusText',
      '201 Made [["a","1"],["content-type","text/plain;charset=UTF-8"]]',
    ])
    expect(outcome(Light, cases[1]).pop()).toMatch(/^TypeError: /)
    expect(outcome(Light, cases[7]).pop()).toBe('202  [["content-type","text/plain;charset=UTF-8"],["f","1"]]')
  })
})
