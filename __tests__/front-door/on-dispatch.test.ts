import http from 'node:http'
import { Hono } from 'hono'
import { fetchBridge, type DispatchInfo } from '../../src/index.js'
import { expressVersions } from '../helpers/express-versions.js'
import { listen, request } from '../helpers/transport.js'

/** Records onDispatch calls; `next(n)` resolves once n calls arrived (they come at 'close'). */
function recorder() {
  const calls: DispatchInfo[] = []
  const waiters: Array<() => void> = []
  const onDispatch = (info: DispatchInfo) => {
    calls.push(info)
    waiters.splice(0).forEach((wake) => wake())
  }
  const until = async (n: number) => {
    while (calls.length < n) await new Promise<void>((resolve) => waiters.push(resolve))
    // A second call for the same request would come in the same tick as the first or later: wait a bit.
    await new Promise((resolve) => setTimeout(resolve, 20))
    return calls
  }
  return { calls, onDispatch, until }
}

function honoApp() {
  const hono = new Hono()
  hono.use('*', async (_c, next) => {
    await next()
  })
  hono.get('/users/:id', (c) => c.text(`user ${c.req.param('id')}`))
  hono.post('/users', (c) => c.text('created', 201))
  return hono
}

describe.each(expressVersions)('onDispatch on %s', (_name, express) => {
  it('reports Hono, Express (fell through) and the status, route and duration of each, once each', async () => {
    const { calls, onDispatch, until } = recorder()
    const app = express()
    app.use(fetchBridge(honoApp(), { onDispatch }))
    app.get('/legacy', (_req, res) => {
      res.status(203).send('express')
    })
    const server = await listen(app)
    try {
      expect((await request(server.url + '/users/7')).body.toString()).toBe('user 7')
      await until(1)
      expect((await request(server.url + '/legacy')).body.toString()).toBe('express')
      await until(2)
      await request(server.url + '/users', { method: 'POST' }, '')
      await request(server.url + '/nowhere')
      await until(4)
      expect(calls.map((c) => [c.side, c.method, c.route, c.status, c.completed])).toEqual([
        ['hono', 'GET', '/users/:id', 200, true],
        ['express', 'GET', undefined, 203, true],
        ['hono', 'POST', '/users', 201, true],
        ['express', 'GET', undefined, 404, true],
      ])
      for (const call of calls) expect(call.duration).toBeGreaterThanOrEqual(0)
      expect(calls[0].req.url).toBe('/users/7')
    } finally {
      await server.close()
    }
  })

  it('reports the front-door fallback, and the Hono route pattern under a mount path', async () => {
    const { calls, onDispatch, until } = recorder()
    const legacy = express()
    legacy.get('/legacy', (_req, res) => {
      res.send('express')
    })
    const server = await listen(fetchBridge(honoApp(), { fallback: legacy, onDispatch }))
    const mounted = express()
    mounted.use('/api', fetchBridge(honoApp(), { onDispatch }))
    const kept = new Hono().get('/v2/items/:id', (c) => c.text('kept')).get('/v2', (c) => c.text('kept root'))
    mounted.use('/v2', fetchBridge(kept, { mountPath: 'keep', onDispatch }))
    const inner = await listen(mounted)
    try {
      expect((await request(server.url + '/legacy')).body.toString()).toBe('express')
      await request(server.url + '/nowhere')
      await until(2)
      expect((await request(inner.url + '/api/users/1')).body.toString()).toBe('user 1')
      expect((await request(inner.url + '/v2/items/9')).body.toString()).toBe('kept')
      // Express turns /v2?x=1 into url /?x=1 under /v2; Hono is given /v2?x=1 and serves /v2.
      expect((await request(inner.url + '/v2?x=1')).body.toString()).toBe('kept root')
      await until(5)
      expect(calls.map((c) => [c.side, c.route, c.status])).toEqual([
        ['fallback', undefined, 200],
        ['fallback', undefined, 404],
        ['hono', '/users/:id', 200],
        ['hono', '/v2/items/:id', 200],
        ['hono', '/v2', 200],
      ])
    } finally {
      await server.close()
      await inner.close()
    }
  })
})

describe('a bridge without onDispatch', () => {
  /** The 'close' and 'finish' listeners on the response when it reaches an Express route behind `bridges`. */
  async function listenersBehind(...bridges: Array<ReturnType<typeof fetchBridge>>): Promise<number[]> {
    const app = expressVersions[0][1]()
    for (const bridge of bridges) app.use(bridge)
    let counts: number[] = []
    app.get('/legacy', (_req, res) => {
      counts = [res.listenerCount('close'), res.listenerCount('finish')]
      res.send('express')
    })
    const server = await listen(app)
    try {
      await request(server.url + '/legacy')
      return counts
    } finally {
      await server.close()
    }
  }

  it('adds no listener to the response (the option costs nothing when unset)', async () => {
    const [close, finish] = await listenersBehind()
    expect(await listenersBehind(fetchBridge(honoApp()))).toEqual([close, finish])
    expect(await listenersBehind(fetchBridge(honoApp(), { onDispatch: () => {} }))).toEqual([close + 1, finish])
  })
})

describe('onDispatch without Express', () => {
  it("reports 'none' when nothing is behind the bridge, and answers exactly as without the option", async () => {
    const { calls, onDispatch, until } = recorder()
    const reported = await listen(fetchBridge(honoApp(), { onDispatch }))
    const plain = await listen(fetchBridge(honoApp()))
    try {
      const a = await request(reported.url + '/nowhere')
      const b = await request(plain.url + '/nowhere')
      expect([a.res.statusCode, a.body.toString()]).toEqual([b.res.statusCode, b.body.toString()])
      await until(1)
      expect(calls.map((c) => [c.side, c.status])).toEqual([['none', 404]])
    } finally {
      await reported.close()
      await plain.close()
    }
  })

  it.each(['/a/../b', '/%61dmin'])('answers a target the app must not get (%s) 400, as without the option', async (path) => {
    const { calls, onDispatch, until } = recorder()
    const reported = await listen(fetchBridge(honoApp(), { onDispatch }))
    const plain = await listen(fetchBridge(honoApp()))
    try {
      // Sent as written: a URL string would have its dot segments resolved by the client.
      const a = await request(reported.url, { path })
      const b = await request(plain.url, { path })
      expect(b.res.statusCode).toBe(400)
      expect([a.res.statusCode, a.body.toString()]).toEqual([b.res.statusCode, b.body.toString()])
      await until(1)
      expect(calls.map((c) => c.status)).toEqual([400])
    } finally {
      await reported.close()
      await plain.close()
    }
  })

  it('reports a request whose client went away as not completed', async () => {
    const { calls, onDispatch, until } = recorder()
    let started!: () => void
    const begun = new Promise<void>((resolve) => (started = resolve))
    const hono = new Hono().get('/slow', (c) => {
      started()
      return c.body(new ReadableStream({ pull: () => new Promise(() => {}) }))
    })
    const server = await listen(fetchBridge(hono, { onDispatch }))
    try {
      const req = http.get(server.url + '/slow')
      req.on('error', () => {})
      await begun
      await new Promise((resolve) => setTimeout(resolve, 20))
      req.destroy()
      await until(1)
      expect(calls[0]).toMatchObject({ side: 'hono', route: '/slow', completed: false })
    } finally {
      await server.close()
    }
  })

  it('turns an onDispatch that throws into a warning, not a crash', async () => {
    // Jest gives each test file its own `process`: watch the call rather than the 'warning' event.
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => {})
    const warnings = () => emitWarning.mock.calls.map((call) => String(call[0]))
    const server = await listen(fetchBridge(honoApp(), {
      onDispatch: () => {
        throw new Error('metrics down')
      },
    }))
    try {
      expect((await request(server.url + '/users/1')).body.toString()).toBe('user 1')
      while (warnings().length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      expect(warnings()[0]).toMatch(/onDispatch threw: Error: metrics down/)
    } finally {
      emitWarning.mockRestore()
      await server.close()
    }
  })

  it('rejects an onDispatch that is not a function', () => {
    expect(() => fetchBridge(honoApp(), { onDispatch: 'yes' as never })).toThrow(/onDispatch must be a function/)
  })
})
