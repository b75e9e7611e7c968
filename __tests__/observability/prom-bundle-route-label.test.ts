// express-prom-bundle with the path label normalised by route (its README's recipe, reading
// req.route at the end of the response): a route moved to Hono is counted under the same label
// as when Express served it. The bridge sets req.route for the requests a Hono route answers.
import { Hono } from 'hono'
import promBundle from 'express-prom-bundle'
import { Registry } from 'prom-client'
import supertest from 'supertest'
import { fetchBridge } from '../../src/index'
import { expressVersions } from '../helpers/express-versions'

type Express = (typeof expressVersions)[number][1]
type Setup = (express: Express, app: ReturnType<Express>) => void

// The label: the route's full pattern, as in express-prom-bundle's "return express route definition".
const byRoute = (req: { route?: { path: string }; baseUrl?: string }) =>
  req.route ? (req.baseUrl ?? '') + req.route.path : 'unmatched'

function honoApi(prefix: string): Hono {
  const hono = new Hono()
  hono.get(`${prefix}/users/:id`, (c) => c.json({ id: c.req.param('id') }))
  hono.post(`${prefix}/orders`, (c) => c.json({ ok: true }, 201))
  hono.get(`${prefix}/streamed`, () => new Response(new Blob(['a', 'b']).stream()))
  return hono
}

const setups: Record<string, Setup> = {
  express: (_express, app) => {
    app.get('/api/users/:id', (req, res) => void res.json({ id: req.params.id }))
    app.post('/api/orders', (_req, res) => void res.status(201).json({ ok: true }))
    app.get('/api/streamed', (_req, res) => void res.send('ab'))
  },
  router: (express, app) => {
    const router = express.Router()
    router.get('/users/:id', (req, res) => void res.json({ id: req.params.id }))
    router.post('/orders', (_req, res) => void res.status(201).json({ ok: true }))
    router.get('/streamed', (_req, res) => void res.send('ab'))
    app.use('/api', router)
  },
  'bridge, mountPath strip': (_express, app) => void app.use('/api', fetchBridge(honoApi(''))),
  'bridge, mountPath keep': (_express, app) => void app.use('/api', fetchBridge(honoApi('/api'), { mountPath: 'keep' })),
  'bridge at the root': (_express, app) => void app.use(fetchBridge(honoApi('/api'))),
}

async function labels(express: Express, setup: Setup): Promise<string[]> {
  const promRegistry = new Registry()
  const app = express()
  app.use(promBundle({ includeMethod: true, includePath: true, normalizePath: byRoute, promRegistry, autoregister: false }))
  setup(express, app)
  // Not moved: an Express route behind the bridge, and a path nobody routes.
  app.get('/api/legacy/:name', (req, res) => void res.send(req.params.name))
  const agent = supertest(app)
  await agent.get('/api/users/1').expect(200)
  await agent.get('/api/users/2').expect(200)
  await agent.post('/api/orders').expect(201)
  await agent.get('/api/streamed').expect(200, 'ab')
  await agent.get('/api/legacy/x').expect(200)
  await agent.get('/nowhere/3').expect(404)
  const metric = await promRegistry.getSingleMetric('http_request_duration_seconds')!.get()
  return metric.values
    .filter((v) => (v as { metricName?: string }).metricName === 'http_request_duration_seconds_count')
    .map((v) => `${String(v.labels.method)} ${String(v.labels.path)} ${String(v.labels.status_code)} x${v.value}`)
    .sort()
}

describe.each(expressVersions)('%s', (_name, express) => {
  it.each(Object.keys(setups).filter((name) => name !== 'express'))(
    '%s: the route-labelled histogram counts each request under the label it had in Express',
    async (setup) => {
      const before = await labels(express, setups.express)
      expect(before).toEqual([
        'GET /api/legacy/:name 200 x1',
        'GET /api/streamed 200 x1',
        'GET /api/users/:id 200 x2',
        'GET unmatched 404 x1',
        'POST /api/orders 201 x1',
      ])
      expect(await labels(express, setups[setup])).toEqual(before)
    },
  )
})
