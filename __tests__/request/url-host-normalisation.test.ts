import http from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from '../../src/index.js'
import { parseHead, raw, listen, type Running } from '../helpers/transport.js'

// request.url must be the URL a real Request gives for the same input: the host lowercased, a
// default port dropped, IP literals in canonical form — and the same from clone().url.

const hono = new Hono()
hono.get('*', (c) => c.json({ url: c.req.raw.url, real: new Request(c.req.raw.url).url, clone: c.req.raw.clone().url }))

// The Host as sent, and the URL the app must see.
const hosts: Array<[host: string, url: string]> = [
  ['LOCALHOST:80', 'http://localhost/x?Q=1'],
  ['Example.COM:8080', 'http://example.com:8080/x?Q=1'],
  ['example.com:', 'http://example.com/x?Q=1'],
  ['example.com:0080', 'http://example.com/x?Q=1'],
  ['example.com:443', 'http://example.com:443/x?Q=1'],
  ['[0:0:0:0:0:0:0:1]:80', 'http://[::1]/x?Q=1'],
  ['127.000.0.1', 'http://127.0.0.1/x?Q=1'],
  ['ex%41mple.com', 'http://example.com/x?Q=1'],
  ['plain.example:8080', 'http://plain.example:8080/x?Q=1'],
]

let server: Running
beforeAll(async () => {
  const app = express()
  app.set('trust proxy', true)
  app.use(fetchBridge(hono))
  server = await listen(app as unknown as http.RequestListener)
})
afterAll(() => server.close())

async function urls(headers: string): Promise<unknown> {
  const { data } = await raw(server.port, `GET /x?Q=1 HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)
  const head = parseHead(data)
  expect(head.status).toBe(200)
  return JSON.parse(head.rest.toString())
}

it.each(hosts)('Host %j → %s, as a real Request and clone() give it', async (host, url) => {
  expect(await urls(`Host: ${host}\r\n`)).toEqual({ url, real: url, clone: url })
})

it('a forwarded Host under trust proxy is normalised the same way', async () => {
  const url = 'https://api.example/x?Q=1'
  const forwarded = 'Host: internal\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: API.Example:443\r\n'
  expect(await urls(forwarded)).toEqual({ url, real: url, clone: url })
})
