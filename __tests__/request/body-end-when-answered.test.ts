// A body the app read to its last byte holds back the request's 'end' while the request may still be
// handed on (its bytes put back for Express: fall-through-unread-body tests that). Once the bridge
// answers, by writing the app's response or reporting its failure, nothing can be handed on: 'end'
// comes then, not when the response is over (a long stream, an SSE feed).
import type { IncomingMessage } from 'node:http'
import express from 'express'
import { Hono } from 'hono'
import { fetchBridge, type HttpBindings } from '../../src/index.js'
import { after, listen, request, waitFor, type Running } from '../helpers/transport.js'

let server: Running
let ended: IncomingMessage[] = []
let release: () => void = () => {}
let events: string[][] = []

beforeAll(async () => {
  const hono = new Hono<{ Bindings: HttpBindings }>()
  hono.post('/stream', async (c) => {
    const body = await c.req.text()
    c.env.incoming.once('end', () => ended.push(c.env.incoming))
    const held = new Promise<void>((resolve) => (release = resolve))
    return new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(`got ${body.length};`))
          await held
          controller.enqueue(new TextEncoder().encode('done'))
          controller.close()
        },
      }),
    )
  })
  hono.post('/prompt', async (c) => {
    const req = c.env.incoming
    const seen: string[] = []
    req.on('pause', () => seen.push('pause'))
    req.once('end', () => events.push([...seen, 'end']))
    return c.text(`got ${(await c.req.text()).length}`)
  })
  // A fetch function, not Hono (whose onError would answer 500 itself): its rejection goes to next(err).
  const failing = async (r: Request, env: HttpBindings) => {
    await r.text()
    env.incoming.once('end', () => ended.push(env.incoming))
    throw Object.assign(new Error('boom'), { status: 418 })
  }
  const app = express()
  app.use('/fail', fetchBridge(failing))
  // Reads more than the replay keeps, then hands the request on: the error (413) is the answer.
  app.use('/over', fetchBridge(overReader(), { replay: { maxBytes: 100 }, honoMiddleware: 'all' }))
  app.use(fetchBridge(hono))
  app.use((err: { status: number }, req: IncomingMessage, res: express.Response, _next: express.NextFunction) => {
    // An error handler that answers once the request has ended (as one that drains the body would):
    // were 'end' held until the response is over, this would never answer.
    const send = () => res.status(err.status).send(`failed; ended ${req.readableEnded}`)
    if (req.readableEnded) send()
    else req.once('end', send)
  })
  server = await listen(app)
})
afterAll(() => server.close())
beforeEach(() => {
  ended = []
  events = []
})

/** A Hono middleware that reads the body, then hands the request on (no route answers it). */
function overReader(): Hono<{ Bindings: HttpBindings }> {
  const over = new Hono<{ Bindings: HttpBindings }>()
  over.use('*', async (c, next) => {
    c.env.incoming.once('end', () => ended.push(c.env.incoming))
    await c.req.text()
    await next()
  })
  return over
}

/** POST to the Express server; an answer that never comes (a request whose 'end' stays held) fails. */
async function postAnswered(path: string, body: string) {
  const r = await Promise.race([request(`${server.url}${path}`, { method: 'POST' }, body), after(2000, undefined)])
  if (r === undefined) throw new Error('no answer: the request never ended')
  return r
}

it("a streamed answer: the request's 'end' comes while the response is still open", async () => {
  const answer = request(`${server.url}/stream`, { method: 'POST' }, 'x'.repeat(5000))
  // The response has started and waits for release(): 'end' must not wait for it.
  expect(await waitFor(() => ended.length === 1, 2000)).toBe(true)
  expect(ended[0].complete).toBe(true)
  release()
  const r = await answer
  expect(r.body.toString()).toBe('got 5000;done')
})

it("the app fails after reading the body: an error handler that waits for the request's end answers", async () => {
  const r = await postAnswered('/fail', 'y'.repeat(5000))
  expect(r.res.statusCode).toBe(418)
  expect(r.body.toString()).toBe('failed; ended true')
  expect(ended).toHaveLength(1)
})

it("a prompt answer: the hold stops the body's flow at its last byte and turns it back on, no pause() of the request", async () => {
  for (const size of [10, 70_000]) {
    const r = await request(`${server.url}/prompt`, { method: 'POST' }, 'z'.repeat(size))
    expect(r.body.toString()).toBe(`got ${size}`)
  }
  expect(await waitFor(() => events.length === 2, 2000)).toBe(true)
  expect(events).toEqual([['end'], ['end']])
})

it("a body read past the replay limit, then handed on: the request's 'end' comes with the 413 (Express error handler, front door)", async () => {
  const inExpress = await postAnswered('/over', 'o'.repeat(5000))
  expect(inExpress.res.statusCode).toBe(413)
  expect(inExpress.body.toString()).toBe('failed; ended true')

  const frontDoor = await listen(fetchBridge(overReader(), { replay: { maxBytes: 100 }, fallback: express() }))
  try {
    const r = await request(`${frontDoor.url}/over`, { method: 'POST' }, 'o'.repeat(5000))
    expect(r.res.statusCode).toBe(413)
    expect(await waitFor(() => ended.length === 2, 2000)).toBe(true)
  } finally {
    await frontDoor.close()
  }
})
