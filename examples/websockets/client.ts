// A chat client for the websockets example, with the `ws` package the example already uses: logs in
// over HTTP (the Express session), then opens the Hono WebSocket route with the session cookie,
// sends each line typed on stdin and prints what comes back.
//   npm run example:websockets:client -- [user] [base URL]   (defaults: alice, http://localhost:3000)
import { createInterface } from 'node:readline'
import WebSocket from 'ws'

const user = process.argv[2] ?? 'alice'
const base = process.argv[3] ?? `http://localhost:${process.env.PORT ?? 3000}`

async function main(): Promise<void> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  })
  const cookie = login.headers.get('set-cookie')?.split(';')[0]
  if (!login.ok || cookie === undefined) throw new Error(`login failed: ${login.status} ${await login.text()}`)

  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/chat`, { headers: { cookie } })
  ws.on('message', (data) => console.log(`< ${data.toString()}`))
  ws.on('close', (code, reason) => {
    console.log(`closed ${code} ${reason.toString()}`)
    process.exit(0)
  })
  ws.on('error', (err) => {
    console.error(err.message)
    process.exit(1)
  })
  ws.on('open', () => {
    console.log(`connected as ${user}; type a message and press Enter (Ctrl-D to leave)`)
    const lines = createInterface({ input: process.stdin })
    lines.on('line', (line) => ws.send(line))
    lines.on('close', () => ws.close(1000, 'bye'))
  })
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
