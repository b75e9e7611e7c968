import { spawn } from 'node:child_process'
import path from 'node:path'
import { io as ioClient } from 'socket.io-client'
import { useExample } from '../helpers/run-example.js'
import { closeAll, connect, rawUpgrade } from '../helpers/websocket.js'

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

  it('the chat client it prints (npm run example:websockets:client) logs in and chats, with no tool to install', async () => {
    const client = spawn(process.execPath, [require.resolve('tsx/cli'), 'examples/websockets/client.ts', 'carol', example().url], {
      cwd: path.resolve(__dirname, '..', '..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    client.stdout.on('data', (c) => (out += c))
    client.stderr.on('data', (c) => (out += c))
    const exited = new Promise<number | null>((resolve) => client.once('exit', resolve))
    const until = async (text: string) => {
      for (let i = 0; i < 200 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 50))
      expect(out).toContain(text)
    }
    await until('connected as carol')
    client.stdin.write('hello from the client\n')
    await until('< carol: hello from the client')
    client.stdin.end()
    expect(await exited).toBe(0)
    expect(example().output()).toContain('chat:    npm run example:websockets:client')
  })
})
