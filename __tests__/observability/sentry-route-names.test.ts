// @sentry/node (its Express and Hono integrations, a local transport, in a child process so its
// instrumentation sees the modules load): an error thrown in a route moved to Hono reaches Sentry
// under the route's name as before the move, and so does the request's transaction, mount prefix
// included under mountPath 'strip'. The child: fixtures/observability/sentry-server.ts.
import { startChildServer, type ChildServer } from '../helpers/child-server'
import { request, sleep } from '../helpers/transport'

interface SentryRecord {
  kind: string
  transaction?: string
  message?: string
}

let child: ChildServer
beforeAll(async () => {
  child = await startChildServer('__tests__/fixtures/observability/sentry-server.ts')
}, 30000)
afterAll(() => child?.stop())

async function recorded(server: string, [failing, ok] = ['/api/users/7', '/api/ok/7']): Promise<SentryRecord[]> {
  await child.ask('events')
  expect((await request(`http://127.0.0.1:${child.ports[server]}${failing}`)).res.statusCode).toBe(500)
  expect((await request(`http://127.0.0.1:${child.ports[server]}${ok}`)).res.statusCode).toBe(200)
  // Sent once each request's segment span ends, after its response.
  const events: SentryRecord[] = []
  for (let i = 0; i < 100 && events.length < 3; i++) {
    events.push(...(await child.ask<SentryRecord[]>('events')))
    if (events.length < 3) await sleep(20)
  }
  return events.sort((a, b) => `${a.kind}${a.transaction}`.localeCompare(`${b.kind}${b.transaction}`))
}

const BEFORE = [
  { kind: 'error', transaction: 'GET /api/users/:id', message: 'boom' },
  { kind: 'transaction', transaction: 'GET /api/ok/:id' },
  { kind: 'transaction', transaction: 'GET /api/users/:id' },
]

it('before the move: the error and both transactions are named after the Express route', async () => {
  expect(await recorded('express')).toEqual(BEFORE)
})

it.each(['strip', 'keep', 'root'])('%s: the error is grouped under the route it had in Express', async (server) => {
  const errors = (await recorded(server)).filter((event) => event.kind === 'error')
  expect(errors).toEqual(BEFORE.filter((event) => event.kind === 'error'))
})

it.each(['strip', 'keep', 'root'])('%s: the transactions carry the names they had in Express', async (server) => {
  expect(await recorded(server)).toEqual(BEFORE)
})

it('expressRouting: a request in another letter case or with a trailing slash is named after the route that answered', async () => {
  expect(await recorded('express-routing', ['/api/USERS/7/', '/api/Ok/7'])).toEqual(BEFORE)
})
