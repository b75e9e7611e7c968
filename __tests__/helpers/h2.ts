import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http2 from 'node:http2'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'

/** A self-signed certificate for localhost/127.0.0.1, made at test time (openssl CLI); nothing committed. */
export function testCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2-cert-'))
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '1',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    )
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export interface H2Server {
  server: http2.Http2Server | http2.Http2SecureServer
  port: number
  /** `https://127.0.0.1:port` or `http://127.0.0.1:port` */
  origin: string
  close(): Promise<void>
}

/** Listen on a free port; close() ends every session first (GOAWAY), so no test leaves a server running. */
export async function listenH2(server: http2.Http2Server | http2.Http2SecureServer, tls: boolean): Promise<H2Server> {
  const sessions = new Set<http2.ServerHttp2Session>()
  server.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s)
    s.on('close', () => sessions.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy()
        ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}

export function connect(origin: string): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin, { rejectUnauthorized: false })
    session.once('connect', () => resolve(session))
    session.once('error', reject)
  })
}

export interface H2Answer {
  status: number
  headers: http2.IncomingHttpHeaders
  body: Buffer
  text: string
  trailers: http2.IncomingHttpHeaders | undefined
}

/** One request on a session; `body` written in one piece (no Content-Length unless given in headers). */
export function h2Request(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
  body?: string | Buffer,
): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'GET', ...headers }, { endStream: body === undefined })
    let head: http2.IncomingHttpHeaders = {}
    let trailers: http2.IncomingHttpHeaders | undefined
    const chunks: Buffer[] = []
    stream.on('response', (h) => (head = h))
    stream.on('trailers', (t) => (trailers = t))
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => {
      const data = Buffer.concat(chunks)
      resolve({ status: Number(head[':status']), headers: head, body: data, text: data.toString('utf8'), trailers })
    })
    stream.on('error', reject)
    if (body !== undefined) stream.end(body)
  })
}

/** One request on its own session (closed afterwards). */
export async function h2Fetch(origin: string, headers: http2.OutgoingHttpHeaders, body?: string | Buffer): Promise<H2Answer> {
  const session = await connect(origin)
  try {
    return await h2Request(session, headers, body)
  } finally {
    session.close()
  }
}
