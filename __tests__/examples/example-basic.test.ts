import { spawn } from 'node:child_process'
import path from 'node:path'
import request from 'supertest'
import { createApp } from '../../examples/basic/app.js'

describe('examples/basic', () => {
  it('serves the Hono routes from Express', async () => {
    const app = createApp()
    const res = await request(app).get('/')
    expect(res.status).toBe(200)
    expect(res.text).toBe('Hello from Hono, served by Express')
    const echo = await request(app).post('/api/echo').send({ hello: 'world' })
    expect(echo.status).toBe(200)
    expect(echo.body).toEqual({ hello: 'world' })
  })

  it('starts with `npm start` and prints its URL', async () => {
    const root = path.resolve(__dirname, '..', '..')
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'examples/basic/server.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (chunk) => {
          out += chunk
          const match = /listening on (http:\/\/localhost:\d+)/.exec(out)
          if (match) resolve(match[1])
        })
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)))
      })
      const res = await fetch(url + '/')
      expect(await res.text()).toBe('Hello from Hono, served by Express')
    } finally {
      child.kill()
    }
  })
})
