import { execFile, execFileSync } from 'node:child_process'
import http2 from 'node:http2'
import { promisify } from 'node:util'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { listenH2, testCertificate, type H2Server } from '../helpers/h2.js'

// Real HTTP/2 clients other than Node's: Debian's curl (nghttp2 inside) and h2load (nghttp2-client).
// Without them these tests are skipped with the reason; REQUIRE_H2_CLIENTS=1 (set by .ci/run, which
// installs them) turns the skip into a failure.

const run = promisify(execFile)

function has(cmd: string, args: string[], pattern: RegExp): boolean {
  try {
    return pattern.test(execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }))
  } catch {
    return false
  }
}

const missing = [
  has('curl', ['-V'], /\bHTTP2\b/) ? undefined : 'curl with HTTP/2 (apt-get install -y curl)',
  has('h2load', ['--version'], /nghttp2/) ? undefined : 'h2load (apt-get install -y nghttp2-client)',
].filter((m): m is string => m !== undefined)

function describeWithClients(name: string, body: () => void): void {
  if (missing.length === 0) return describe(name, body)
  const reason = `not found: ${missing.join(', ')}`
  if (process.env.REQUIRE_H2_CLIENTS !== '1') {
    console.log(`skipping "${name}": ${reason}`)
    return describe.skip(name, body)
  }
  describe(name, () => {
    it('needs curl and h2load (REQUIRE_H2_CLIENTS=1)', () => {
      throw new Error(`REQUIRE_H2_CLIENTS=1 but ${reason}`)
    })
  })
}

describeWithClients('curl and h2load against the front door', () => {
  let secure: H2Server
  let clear: H2Server
  beforeAll(async () => {
    const hono = new Hono()
    hono.get('/hono', (c) => c.text('from hono'))
    hono.post('/count', async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)))
    const app = express()
    app.get('/express', (req, res) => res.send(`from express ${req.protocol}`))
    const handler = fetchBridge(hono, { fallback: app }) as unknown as (
      req: http2.Http2ServerRequest,
      res: http2.Http2ServerResponse,
    ) => void
    secure = await listenH2(http2.createSecureServer({ ...testCertificate(), allowHTTP1: true }, handler), true)
    clear = await listenH2(http2.createServer(handler), false)
  })
  afterAll(async () => {
    await secure.close()
    await clear.close()
  })

  const curl = (...args: string[]) => run('curl', ['-sS', '-k', '-w', '\n%{http_version} %{http_code}', ...args], { encoding: 'utf8' })

  it('curl --http2 negotiates h2 by ALPN; --http1.1 gets HTTP/1.1 on the same port', async () => {
    expect((await curl('--http2', `${secure.origin}/hono`)).stdout).toBe('from hono\n2 200')
    expect((await curl('--http2', `${secure.origin}/express`)).stdout).toBe('from express https\n2 200')
    expect((await curl('--http1.1', `${secure.origin}/express`)).stdout).toBe('from express https\n1.1 200')
  })

  it('curl --http2-prior-knowledge speaks h2c', async () => {
    expect((await curl('--http2-prior-knowledge', `${clear.origin}/hono`)).stdout).toBe('from hono\n2 200')
    expect((await curl('--http2-prior-knowledge', `${clear.origin}/express`)).stdout).toBe('from express http\n2 200')
  })

  it('curl uploads 8 MiB over h2 (flow control), from stdin without a Content-Length', async () => {
    const child = execFile('curl', ['-sS', '-k', '--http2', '-T', '-', '-X', 'POST', `${secure.origin}/count`], { encoding: 'utf8' })
    const out = new Promise<string>((resolve, reject) => {
      let text = ''
      child.stdout!.on('data', (c: string) => (text += c))
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`curl exited ${code}`))))
    })
    child.stdin!.end(Buffer.alloc(8 * 1024 * 1024, 7))
    expect(await out).toBe(String(8 * 1024 * 1024))
  })

  it('h2load: 2 connections × 10 concurrent streams, Hono and Express routes, every request answered 2xx', async () => {
    for (const [origin, route] of [
      [secure.origin, '/hono'],
      [secure.origin, '/express'],
      [clear.origin, '/hono'],
    ] as const) {
      const { stdout } = await run('h2load', ['-n', '400', '-c', '2', '-m', '10', `${origin}${route}`], { encoding: 'utf8' })
      expect(stdout).toMatch(/requests: 400 total, 400 started, 400 done, 400 succeeded, 0 failed, 0 errored/)
      expect(stdout).toMatch(/status codes: 400 2xx/)
    }
  })
})
