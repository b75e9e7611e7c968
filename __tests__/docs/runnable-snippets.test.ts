import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { blocks, markdownFiles, root, type Block } from './markdown'

// Every code block the README or the docs mark as runnable runs, as a reader would run it (tsx, the
// package by its name, mapped to src/ by tsconfig.json "paths"):
//   <!-- run -->                        a script: it must exit 0 (its own node:assert checks)
//   <!-- run: GET /hello 200 text -->   a server: it listens (on a free port instead of the one
//                                       written), and that request gets that status and body.

const runnable = markdownFiles()
  .flatMap(blocks)
  .filter((b) => b.marker === 'run' || b.marker?.startsWith('run:'))
const tsx = require.resolve('tsx/cli')
const preload = path.join(root, '__tests__', 'fixtures', 'docs-free-port.cjs')
const dir = path.join(root, 'scratch', `docs-snippets-${process.pid}`)

beforeAll(() => mkdirSync(dir, { recursive: true }))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Run {
  code: number | null
  output: string
}

function start(b: Block, onLine: (line: string) => void): { done: Promise<Run>; stop(): void } {
  const file = path.join(dir, `${b.file.replace(/\W+/g, '-')}-${b.line}.mts`)
  writeFileSync(file, b.code + '\n')
  const child = spawn(process.execPath, [tsx, '--require', preload, file], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk
    for (const line of String(chunk).split('\n')) onLine(line)
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, output })))
  return { done, stop: () => child.kill() }
}

it('finds runnable snippets in the docs', () => {
  expect(runnable.filter((b) => b.marker === 'run').length).toBeGreaterThanOrEqual(3)
  expect(runnable.filter((b) => b.marker?.startsWith('run:')).length).toBeGreaterThanOrEqual(1)
})

it.each(runnable.map((b) => [`${b.file}:${b.line}`, b] as const))('the snippet at %s runs', async (_at, b) => {
  if (b.marker === 'run') {
    const run = await start(b, () => {}).done
    expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: expect.any(String) })
    return
  }
  const [, method, target, status, body] = /^run:\s*(\w+)\s+(\S+)\s+(\d{3})\s*(.*)$/.exec(b.marker!) ?? []
  expect(method).toBeDefined()
  let port: (value: number) => void
  const listening = new Promise<number>((resolve) => (port = resolve))
  const server = start(b, (line) => {
    const m = /^docs-snippet-listening (\d+)$/.exec(line)
    if (m) port(Number(m[1]))
  })
  const exited = server.done.then((run) => {
    throw new Error(`the snippet exited (${run.code}) before listening:\n${run.output}`)
  })
  try {
    const res = await fetch(`http://127.0.0.1:${await Promise.race([listening, exited])}${target}`, { method })
    expect({ status: res.status, body: await res.text() }).toEqual({ status: Number(status), body })
  } finally {
    exited.catch(() => {})
    server.stop()
    await server.done
  }
}, 60_000)
