// What each Fetch-API bridge does when mounted as Express 5 middleware, for the behaviours the README's
// "Comparison with other bridges" table lists. The server for each is __tests__/fixtures/peer-server.ts
// (same Hono app, same Express stack); the expectations below are what the pinned versions do.
import http from 'node:http'
import { runExample, type RunningExample } from '../helpers/run-example.js'
import { readSseBlocks } from '../helpers/sse.js'
import { request } from '../helpers/transport.js'

const PEERS = ['express-fetch-bridge', '@hono/node-server', '@whatwg-node/server', '@remix-run/node-fetch-server', 'srvx'] as const
type Peer = (typeof PEERS)[number]

interface Answer {
  status: number | 'hang'
  headers: http.IncomingHttpHeaders
  body: string
}

/** A request on a fresh connection; 'hang' when no complete answer comes within `timeoutMs`. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}, timeoutMs = 3000): Promise<Answer> {
  // The timeout aborts the request, which cuts its socket.
  const signal = AbortSignal.timeout(timeoutMs)
  return request(url, { method: options.method ?? 'GET', headers: options.headers, signal }, options.body).then(
    ({ res, body }): Answer => ({ status: res.statusCode!, headers: res.headers, body: body.toString('utf8') }),
    (err: unknown): Answer => {
      if (signal.aborted) return { status: 'hang', headers: {}, body: '' }
      throw err
    },
  )
}

interface SseResult {
  encoding: string | undefined
  events: number
  /** The first event arrived before the last one was sent. */
  streamed: boolean
}

function readSse(url: string, timeoutMs = 5000): Promise<SseResult> {
  return new Promise((resolve, reject) => {
    const arrivals: { at: number; sentAt: number }[] = []
    let encoding: string | undefined
    const finish = () => {
      clearTimeout(timer)
      const streamed = arrivals.length === 3 && arrivals[0].at < arrivals[2].sentAt
      resolve({ encoding, events: arrivals.length, streamed })
    }
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip' }, agent: false }, (res) => {
      encoding = res.headers['content-encoding']
      const body = readSseBlocks(res, (block) => {
        const data = /^data: ?(.*)$/m.exec(block)?.[1]
        if (data !== undefined) arrivals.push({ at: Date.now(), sentAt: JSON.parse(data).sentAt })
      })
      body.on('end', finish)
      body.on('error', finish)
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish()
    }, timeoutMs)
    req.on('error', reject)
  })
}

interface Observed {
  /** GET of a path only Express has. */
  fallthrough: string
  /** A Hono route throws (with `hono.onError((err) => { throw err })`). */
  nextErr: string
  /** POST JSON after express.json() ran, read with c.req.json(). */
  parsedBody: string
  /** Set-Cookie lines: res.cookie('express') ran before, Hono sets 'hono'. */
  cookies: string[]
  /** A header only the earlier Express middleware set. */
  earlyHeaderKept: boolean
  /** `Vary: Accept` set before, Hono sets `Vary: Origin`. */
  vary: string | undefined
  sse: SseResult
}

async function observe(url: string): Promise<Observed> {
  const [fall, err, echo, cookies, sse] = await Promise.all([
    send(url + '/express-only'),
    send(url + '/throw'),
    send(url + '/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }),
    send(url + '/cookies'),
    readSse(url + '/sse'),
  ])
  return {
    fallthrough: fall.status === 200 && fall.body === 'express' ? 'next()' : `${fall.status}`,
    nextErr: err.status === 599 && JSON.parse(err.body).handledBy === 'express' ? 'next(err)' : `${err.status}`,
    parsedBody: echo.status === 200 && echo.body === '{"a":1}' ? 'same data' : echo.status === 599 ? 'next(err)' : `${echo.status}`,
    cookies: (cookies.headers['set-cookie'] ?? []).map((line) => line.slice(0, line.indexOf('='))),
    earlyHeaderKept: cookies.headers['x-early'] === 'kept',
    vary: cookies.headers.vary,
    sse,
  }
}

const observed = new Map<Peer, Observed>()
const running: RunningExample[] = []

beforeAll(async () => {
  const servers = await Promise.all(
    PEERS.map((peer) => runExample('__tests__/fixtures/peer-server.ts', { PEER: peer }, 30000).then((r) => (running.push(r), [peer, r] as const))),
  )
  const results = await Promise.all(servers.map(async ([peer, r]) => [peer, await observe(r.url)] as const))
  for (const [peer, result] of results) observed.set(peer, result)
}, 60000)

afterAll(async () => {
  await Promise.all(running.map((r) => r.stop()))
})

// Keep in sync with the README table "Comparison with other bridges".
const EXPECTED: Record<Peer, Observed> = {
  'express-fetch-bridge': {
    fallthrough: 'next()',
    nextErr: 'next(err)',
    parsedBody: 'same data',
    cookies: ['express', 'hono'],
    earlyHeaderKept: true,
    vary: 'Accept, Origin',
    sse: { encoding: 'gzip', events: 3, streamed: true },
  },
  '@hono/node-server': {
    fallthrough: '404',
    nextErr: '500',
    parsedBody: '500',
    cookies: ['hono'],
    earlyHeaderKept: true,
    vary: 'Origin',
    sse: { encoding: 'gzip', events: 3, streamed: false },
  },
  '@whatwg-node/server': {
    fallthrough: '404',
    nextErr: '500',
    parsedBody: 'same data',
    cookies: ['hono'],
    earlyHeaderKept: true,
    vary: 'Origin',
    sse: { encoding: 'gzip', events: 3, streamed: false },
  },
  '@remix-run/node-fetch-server': {
    fallthrough: '404',
    nextErr: '500',
    parsedBody: 'hang',
    cookies: ['hono'],
    earlyHeaderKept: true,
    vary: 'Origin',
    sse: { encoding: 'gzip', events: 3, streamed: false },
  },
  // srvx's toNodeHandler returns the handler's promise, so Express 5 turns a rejection into next(err).
  srvx: {
    fallthrough: '404',
    nextErr: 'next(err)',
    parsedBody: 'next(err)',
    cookies: ['hono'],
    earlyHeaderKept: true,
    vary: 'Origin',
    sse: { encoding: 'gzip', events: 3, streamed: false },
  },
}

describe.each(PEERS)('%s as Express 5 middleware', (peer) => {
  const get = () => observed.get(peer)!

  it('fall-through: a path only Express has', () => {
    expect(get().fallthrough).toBe(EXPECTED[peer].fallthrough)
  })
  it('errors: a Hono route throws', () => {
    expect(get().nextErr).toBe(EXPECTED[peer].nextErr)
  })
  it('parsed bodies: c.req.json() after express.json()', () => {
    expect(get().parsedBody).toBe(EXPECTED[peer].parsedBody)
  })
  it('header merge: Set-Cookie, Vary and other headers set by earlier middleware', () => {
    expect(get().cookies).toEqual(EXPECTED[peer].cookies)
    expect(get().earlyHeaderKept).toBe(EXPECTED[peer].earlyHeaderKept)
    expect(get().vary).toBe(EXPECTED[peer].vary)
  })
  it('SSE behind compression: events arrive as they are sent', () => {
    expect(get().sse).toEqual(EXPECTED[peer].sse)
  })
})
