import http from 'node:http'
import { hasRedisServer, startRedisServer, type RedisServer, type RedisServerOptions } from '../../examples/scale-out/redis-server.js'
import { runExample, type RunningExample } from '../helpers/run-example.js'
import { after, request as transportRequest, sleep } from '../helpers/transport.js'

/**
 * Whether these tests can run: a `redis-server` binary is needed (a real Redis, never a mock). Without
 * one they are skipped with a one-line reason, unless REQUIRE_REDIS=1 (CI sets it): then they fail.
 */
export function redisAvailability(
  env: NodeJS.ProcessEnv,
  found: boolean,
): { run: true } | { run: false; reason: string; fail: boolean } {
  if (found) return { run: true }
  const reason = 'redis-server not found on PATH (apt-get install -y redis-server)'
  return { run: false, reason, fail: env.REQUIRE_REDIS === '1' }
}

/** describe() that needs redis-server: skipped with the reason printed, or failing under REQUIRE_REDIS=1. */
export function describeWithRedis(name: string, body: () => void): void {
  const availability = redisAvailability(process.env, hasRedisServer())
  if (availability.run) return describe(name, body)
  if (!availability.fail) {
    console.log(`skipping "${name}": ${availability.reason}`)
    return describe.skip(name, body)
  }
  describe(name, () => {
    it('needs redis-server (REQUIRE_REDIS=1)', () => {
      throw new Error(`REQUIRE_REDIS=1 but ${availability.reason}`)
    })
  })
}

/** A redis-server of the test file's own, on a free port, for the enclosing describe(). */
export function useRedis(options: RedisServerOptions = {}): () => RedisServer {
  let redis: RedisServer | undefined
  beforeAll(async () => {
    redis = await startRedisServer(options)
  })
  afterAll(async () => {
    await redis?.dispose()
  })
  return () => {
    if (!redis) throw new Error('redis-server did not start')
    return redis
  }
}

export interface Cluster extends RunningExample {
  primary: number
}

/** The example's two modes, in the order useClusters() returns their clusters. */
export const MODES = ['middleware', 'front-door'] as const

/**
 * One cluster per mode for the enclosing describe(), both on `redis` (their keys apart by prefix),
 * started before its tests and stopped after them.
 */
export function useClusters(redis: () => RedisServer, env: Record<string, string> = {}): Cluster[] {
  const clusters: Cluster[] = []
  beforeAll(async () => {
    const started = await Promise.all(
      MODES.map((mode) => startCluster({ REDIS_URL: redis().url, MODE: mode, REDIS_PREFIX: `${mode}:`, ...env })),
    )
    clusters.push(...started)
  }, 60_000)
  afterAll(async () => {
    await Promise.all(clusters.map((c) => c.stop()))
  })
  return clusters
}

/** `npm run example:scale-out` with PORT=0 and the given env; resolves once every worker listens. */
export async function startCluster(env: Record<string, string>): Promise<Cluster> {
  const running = await runExample('examples/scale-out/server.ts', { WORKERS: '2', ...env }, 40_000)
  return { ...running, primary: Number(/primary (\d+),/.exec(running.output())?.[1]) }
}

export interface Answer {
  status: number
  pid: number
  headers: http.IncomingHttpHeaders
  body: string
  json<T = Record<string, unknown>>(): T
}

/**
 * One request on a fresh connection (the cluster primary hands each connection to the next worker),
 * failing after `timeoutMs` rather than hanging.
 */
export async function request(
  url: string,
  options: { method?: string; cookie?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  const headers: http.OutgoingHttpHeaders = {}
  if (options.cookie) headers.cookie = options.cookie
  if (payload !== undefined) headers['content-type'] = 'application/json'
  const timeoutMs = options.timeoutMs ?? 5000
  const answer = transportRequest(url, { method: options.method ?? 'GET', headers }, payload)
  const { res, body } = await Promise.race([
    answer,
    after(timeoutMs, undefined).then(() => Promise.reject(new Error(`no answer within ${timeoutMs} ms: ${url}`))),
  ])
  const text = body.toString('utf8')
  return { status: res.statusCode ?? 0, pid: Number(res.headers['x-worker-pid']), headers: res.headers, body: text, json: () => JSON.parse(text) }
}

/** POST /login; resolves with the session cookie and the pid of the worker that logged in. */
export async function login(url: string, user: string): Promise<{ cookie: string; pid: number }> {
  const res = await request(url + '/login', { method: 'POST', body: { user } })
  expect(res.status).toBe(200)
  const cookie = String(res.headers['set-cookie']?.[0]).split(';')[0]!
  return { cookie, pid: res.pid }
}

/**
 * Send requests on fresh connections until every worker in `workers` has answered each path (at most
 * `max` requests). Returns every answer, so the caller can assert on all of them.
 */
export async function onEveryWorker(urls: string[], cookie: string | undefined, workers: number, max = 40): Promise<Array<Answer & { path: string }>> {
  const answers: Array<Answer & { path: string }> = []
  const seen = new Set<string>()
  for (let i = 0; i < max && seen.size < urls.length * workers; i++) {
    // Each path in turn for `workers` connections: round-robin then takes it to every worker.
    const url = urls[Math.floor(i / workers) % urls.length]!
    const res = await request(url, cookie === undefined ? {} : { cookie })
    answers.push({ ...res, path: new URL(url).pathname })
    seen.add(`${url} ${res.pid}`)
  }
  return answers
}

/** Poll `check` every 50 ms until it returns a value, or throw after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, ms: number, what: string): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const value = await check()
    if (value !== undefined) return value
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`)
}
