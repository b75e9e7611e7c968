import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

// src/ is formatted by the project's Prettier settings (.prettierrc.json: 120 columns, no semicolons,
// single quotes): `npm run format` rewrites it, this test fails when a change left it unformatted.

const root = path.resolve(__dirname, '..', '..')

it('src/ is formatted (npm run format)', async () => {
  const prettier = require.resolve('prettier/bin/prettier.cjs')
  const result = await promisify(execFile)(process.execPath, [prettier, '--check', 'src/**/*.ts'], { cwd: root }).then(
    () => 'formatted',
    (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`,
  )
  expect(result).toBe('formatted')
}, 60_000)
