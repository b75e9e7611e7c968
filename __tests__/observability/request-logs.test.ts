// What request loggers record for a request a Hono route answered: pino-http and morgan get the
// status, the length and a response time as for an Express route, and the route where such loggers
// are told to read it (req.baseUrl + req.route.path, set by the bridge).
import { Writable } from 'node:stream'
import { Hono } from 'hono'
import morgan from 'morgan'
import pino from 'pino'
import pinoHttp from 'pino-http'
import supertest from 'supertest'
import { fetchBridge } from '../../src/index'
import { expressVersions } from '../helpers/express-versions'

type Express = (typeof expressVersions)[number][1]
const route = (req: { route?: { path: string }; baseUrl?: string }) => (req.route ? (req.baseUrl ?? '') + req.route.path : undefined)

function lines(): { stream: Writable; read(): string[] } {
  const out: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  return { stream, read: () => out }
}

function serve(express: Express, moved: boolean, loggers: Array<(...args: any[]) => void>) {
  const app = express()
  for (const logger of loggers) app.use(logger)
  if (moved) {
    const hono = new Hono()
    hono.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
    hono.get('/fail', (c) => c.text('down', 503))
    hono.get('/streamed', () => new Response(new ReadableStream({ pull: (c) => (c.enqueue(new TextEncoder().encode('xyz')), c.close()) })))
    app.use('/api', fetchBridge(hono))
  } else {
    app.get('/api/users/:id', (req, res) => void res.json({ id: req.params.id }))
    app.get('/api/fail', (_req, res) => void res.status(503).send('down'))
    app.get('/api/streamed', (_req, res) => void res.send('xyz'))
  }
  return app
}

describe.each(expressVersions)('%s', (_name, express) => {
  it('morgan: status, length, response time and the route of a moved route read as before the move', async () => {
    morgan.token('route', (req) => route(req as never) ?? '-')
    const record = async (moved: boolean) => {
      const out = lines()
      const app = serve(express, moved, [morgan(':method :url :status :res[content-length] :response-time :route', { stream: out.stream })])
      await supertest(app).get('/api/users/7').expect(200)
      await supertest(app).get('/api/fail').expect(503)
      await supertest(app).get('/api/streamed').expect(200, 'xyz')
      return out.read()
    }
    const shape = (line: string) => line.replace(/ \d+\.\d+ /, ' <ms> ')
    const before = await record(false)
    // A response time was measured (on-headers saw the head written).
    for (const line of before) expect(line).toMatch(/ \d+\.\d{3} /)
    expect(before.map(shape)).toEqual([
      'GET /api/users/7 200 10 <ms> /api/users/:id',
      'GET /api/fail 503 4 <ms> /api/fail',
      'GET /api/streamed 200 3 <ms> /api/streamed',
    ])
    const after = await record(true)
    for (const line of after) expect(line).toMatch(/ \d+\.\d{3} /)
    expect(after.map(shape)).toEqual(before.map(shape))
  })

  it('pino-http: status, content-length, responseTime and a route read through customProps, as before the move', async () => {
    const record = async (moved: boolean) => {
      const out = lines()
      const logger = pinoHttp({ logger: pino(out.stream), customProps: (req) => ({ route: route(req as never) }) })
      const app = serve(express, moved, [logger])
      await supertest(app).get('/api/users/7').expect(200)
      await supertest(app).get('/api/fail').expect(503)
      await supertest(app).get('/api/streamed').expect(200, 'xyz')
      return out.read().map((line) => {
        const entry = JSON.parse(line)
        expect(typeof entry.responseTime).toBe('number')
        return {
          msg: entry.msg,
          route: entry.route,
          url: entry.req.url,
          status: entry.res.statusCode,
          length: entry.res.headers['content-length'],
        }
      })
    }
    const before = await record(false)
    expect(before).toEqual([
      { msg: 'request completed', route: '/api/users/:id', url: '/api/users/7', status: 200, length: '10' },
      { msg: 'request errored', route: '/api/fail', url: '/api/fail', status: 503, length: '4' },
      { msg: 'request completed', route: '/api/streamed', url: '/api/streamed', status: 200, length: '3' },
    ])
    expect(await record(true)).toEqual(before)
  })
})
