import express from 'express'
import { fetchBridge } from '../../src/index.js'
import { listen, raw, type Running } from '../helpers/transport.js'

const enc = new TextEncoder()

/** A stream of the given chunks, sent with the given Content-Length. */
function declared(length: number, chunks: string[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const chunk of chunks) {
          controller.enqueue(enc.encode(chunk))
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        controller.close()
      },
    }),
    { headers: { 'content-length': String(length) } },
  )
}

/** Raw keep-alive request: everything the server sent until it closed or went quiet for 600 ms. */
async function get(port: number, path: string): Promise<{ text: string; closed: boolean }> {
  const { data, ended } = await raw(port, `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`, undefined, 600)
  return { text: data.toString('latin1'), closed: ended !== 'open' }
}

describe('a stream body with a Content-Length from the app', () => {
  const errors: Error[] = []
  let server: Running
  beforeAll(async () => {
    const app = express()
    app.use(
      fetchBridge((request: Request) => {
        const path = new URL(request.url).pathname
        if (path === '/exact') return declared(6, ['abc', 'def'])
        if (path === '/short') return declared(10, ['abc', 'def'])
        if (path === '/long') return declared(4, ['ab', 'cdef'])
        return undefined
      }),
    )
    app.use((err: Error, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
      errors.push(err)
      next(err)
    })
    server = await listen(app)
  })
  afterAll(() => server.close())
  beforeEach(() => {
    errors.length = 0
  })

  const body = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4)

  it('exact: sent with that Content-Length, the connection stays open for the next request', async () => {
    const { text, closed } = await get(server.port, '/exact')
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(text.toLowerCase()).toContain('content-length: 6')
    expect(body(text)).toBe('abcdef')
    expect(closed).toBe(false)
    expect(errors).toHaveLength(0)
  })

  it('shorter than declared: the connection is closed instead of leaving the client waiting', async () => {
    const { text, closed } = await get(server.port, '/short')
    expect(body(text)).toBe('abcdef')
    expect(closed).toBe(true)
    expect(errors.map((e) => e.message)).toEqual(['The response stream ended before its Content-Length'])
  })

  it('longer than declared: no byte past the Content-Length is sent, then the connection is closed', async () => {
    const { text, closed } = await get(server.port, '/long')
    expect(body(text)).toBe('ab')
    expect(closed).toBe(true)
    expect(errors.map((e) => e.message)).toEqual(['The response stream produced more bytes than its Content-Length'])
  })
})
