import { io as ioClient } from 'socket.io-client'
import { useExample } from './helpers/run-example.js'
import { closeAll, connect, rawUpgrade } from './helpers/websocket.js'

describe('examples/websockets (npm run example:websockets)', () => {
  const example = useExample('examples/websockets/server.ts', { SESSION_SECRET: 'test-secret' })

  async function login(user: string): Promise<string> {
    const res = await fetch(`${example().url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user }),
    })
    expect(res.status).toBe(200)
    return res.headers.getSetCookie()[0].split(';')[0]
  }

  it('refuses the chat upgrade without a legacy session: 401, socket closed', async () => {
    const port = Number(new URL(example().url).port)
    const answer = await rawUpgrade(port, '/api/chat')
    expect(answer.status).toBe(401)
    expect(answer.closedByServer).toBe(true)
  })

  it('lets two users logged in through Express chat over the Hono route', async () => {
    const ws = example().url.replace('http:', 'ws:')
    const alice = await connect(`${ws}/api/chat`, { headers: { cookie: await login('alice') } })
    expect(await alice.next()).toBe('* alice joined')
    const bob = await connect(`${ws}/api/chat`, { headers: { cookie: await login('bob') } })
    expect(await alice.next()).toBe('* bob joined')
    expect(await bob.next()).toBe('* bob joined')
    bob.ws.send('hi alice')
    expect(await alice.next()).toBe('bob: hi alice')
    expect(await bob.next()).toBe('bob: hi alice')
    await closeAll(alice, bob)
  })

  it('keeps the legacy socket.io namespace working on the same server', async () => {
    const socket = ioClient(`${example().url}/notifications`, { transports: ['websocket'], reconnection: false, forceNew: true })
    const hello = await new Promise<string>((resolve, reject) => {
      socket.once('hello', resolve)
      socket.once('connect_error', reject)
    })
    socket.close()
    expect(hello).toBe('from the legacy socket.io namespace')
  })
})
