import http from 'node:http'

export interface LoadOptions {
  /** Base URL, e.g. http://localhost:3000 */
  url: string
  /** Session cookie (`connect.sid=…`) and the user it belongs to: every answer must name that user. */
  cookie: string
  user: string
  /** Concurrent keep-alive connections, each sending one request after the other. Default 32. */
  connections?: number
  /** Paths taken in turn. Default: a Hono route and an Express route, both reading the session. */
  paths?: string[]
}

export interface LoadResult {
  requests: number
  /** 200 with the session's user. */
  ok: number
  /** Everything else: network errors (by code) and unexpected answers (by status). No request is retried. */
  failed: number
  failures: Record<string, number>
  /** Answers that were 200 but did not name the user (a session lost on the way). */
  sessionLost: number
  /** Answers carrying `Connection: close`: a draining worker telling the client not to reuse the socket. */
  connectionClose: number
  /** Answers per worker pid. */
  byPid: Record<string, number>
  seconds: number
  perSecond: number
}

interface Answer {
  status: number
  pid: string
  close: boolean
  body: string
}

function send(agent: http.Agent, url: string, cookie: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { cookie } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          pid: String(res.headers['x-worker-pid'] ?? '?'),
          close: res.headers.connection === 'close',
          body,
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

/**
 * A hand-written keep-alive load: `connections` loops over one `http.Agent` (keepAlive, as browsers
 * and most HTTP clients reuse connections), each request sent once, never retried, until `until`
 * settles. Every failure is counted.
 */
export async function runLoad(options: LoadOptions, until: Promise<unknown>): Promise<LoadResult> {
  const connections = options.connections ?? 32
  const paths = options.paths ?? ['/api/me', '/legacy/me']
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const result: LoadResult = {
    requests: 0, ok: 0, failed: 0, failures: {}, sessionLost: 0, connectionClose: 0, byPid: {}, seconds: 0, perSecond: 0,
  }
  const fail = (why: string) => {
    result.failed++
    result.failures[why] = (result.failures[why] ?? 0) + 1
  }
  let done = false
  void until.finally(() => (done = true))
  const started = performance.now()
  const loop = async (n: number) => {
    for (let i = n; !done; i++) {
      result.requests++
      try {
        const answer = await send(agent, options.url + paths[i % paths.length], options.cookie)
        result.byPid[answer.pid] = (result.byPid[answer.pid] ?? 0) + 1
        if (answer.close) result.connectionClose++
        if (answer.status !== 200) fail(`status ${answer.status}`)
        else if ((JSON.parse(answer.body) as { user?: string }).user !== options.user) result.sessionLost++
        else result.ok++
      } catch (err) {
        fail((err as NodeJS.ErrnoException).code ?? (err as Error).message)
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, (_, n) => loop(n)))
  agent.destroy()
  result.seconds = (performance.now() - started) / 1000
  result.perSecond = Math.round(result.requests / result.seconds)
  return result
}

/** POST /login on a fresh connection; resolves with the session cookie. */
export async function login(url: string, user: string): Promise<string> {
  const res = await fetch(url + '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  })
  const cookie = res.headers.get('set-cookie')?.split(';')[0]
  if (!res.ok || cookie === undefined) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return cookie
}
