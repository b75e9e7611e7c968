import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { packed, root, type Packed } from '../helpers/packed'

// The publishing linters find nothing in the packed tarball, and installing this repository's
// dependencies (npm ci) has no install script left unreviewed, so it prints no warning.

const run = async (command: string, args: string[]) => {
  const { stdout, stderr } = await promisify(execFile)(command, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } }).catch(
    (err: { stdout: string; stderr: string }) => err,
  )
  return stdout + stderr
}
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

let pack: Packed
beforeAll(() => {
  pack = packed()
}, 200_000)

describe('the packed package', () => {
  it('publint: no errors, warnings or suggestions', async () => {
    const output = await run(bin('publint'), ['run', pack.tarball, '--level', 'suggestion'])
    expect(output).toContain('All good!')
  }, 60_000)

  it('@arethetypeswrong/cli: no problems in any resolution mode', async () => {
    const output = await run(bin('attw'), [pack.tarball, '--format', 'json'])
    const report = JSON.parse(output.slice(output.indexOf('{'))) as { analysis: { problems: unknown[]; entrypoints: object } }
    expect(Object.keys(report.analysis.entrypoints)).toContain('.')
    expect(report.analysis.problems).toEqual([])
  }, 60_000)
})

describe('the repository', () => {
  it('reviewed every dependency install script (package.json allowScripts)', async () => {
    const output = await run('npm', ['install-scripts', 'ls'])
    expect(output).toContain('No packages with unreviewed install scripts.')
  }, 60_000)
})
