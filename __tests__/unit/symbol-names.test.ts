import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

// Symbols the package defines follow one rule: a registered symbol (shared by every loaded copy of
// the package, ESM and CJS) is defined only in core/process-shared.ts; every symbol's description is
// `express-fetch-bridge/<kebab-case-name>`, so a stray property in a debugger says whose it is.

const src = path.resolve(__dirname, '..', '..', 'src')
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : []
  })

const symbols = files(src).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/Symbol(\.for)?\(\s*(['"`])([^'"`]*)\2\s*\)/g)].map((m) => ({
    file: path.relative(src, file),
    registered: m[1] !== undefined,
    name: m[3],
  })),
)

it('finds the symbols it checks', () => {
  expect(symbols.filter((s) => s.registered && s.name.startsWith('express-fetch-bridge/')).length).toBeGreaterThan(3)
  expect(symbols.filter((s) => !s.registered).length).toBeGreaterThan(3)
})

// Other packages' registered symbols the package reads, each in one file: OpenTelemetry's API global
// and context keys (observability/otel.ts reaches the application's OpenTelemetry through them).
const FOREIGN: Record<string, string> = {
  'opentelemetry.js.api.1': path.join('observability', 'otel.ts'),
  'OpenTelemetry SDK Context Key RPC_METADATA': path.join('observability', 'otel.ts'),
  'OpenTelemetry Context Key SPAN': path.join('observability', 'otel.ts'),
}

it("reads other packages' registered symbols only where the table says", () => {
  const foreign = symbols.filter((s) => s.registered && s.name in FOREIGN)
  expect(foreign.map((s) => s.name).sort()).toEqual(Object.keys(FOREIGN).sort())
  expect(foreign.filter((s) => s.file !== FOREIGN[s.name])).toEqual([])
})

it('names every symbol express-fetch-bridge/<kebab-case>', () => {
  // processShared(key) registers `express-fetch-bridge/${key}`: its keys are checked below.
  const own = symbols.filter(
    (s) => s.name !== 'nodejs.util.inspect.custom' && s.name !== 'express-fetch-bridge/${key}' && !(s.name in FOREIGN),
  )
  expect(own.filter((s) => !/^express-fetch-bridge\/[a-z0-9]+(-[a-z0-9]+)*$/.test(s.name))).toEqual([])
})

it('keys processShared() values <kebab-case>@<version>', () => {
  const keys = files(src).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:processShared|registeredShared)(?:<[^>]*>)?\(\s*(['"`])([^'"`]*)\1/g)].map((m) => m[2]),
  )
  expect(keys.length).toBeGreaterThan(0)
  expect(keys.filter((key) => !/^[a-z0-9]+(-[a-z0-9]+)*@\d+$/.test(key))).toEqual([])
})

it('registers shared symbols in core/process-shared.ts only', () => {
  const elsewhere = symbols.filter(
    (s) =>
      s.registered && s.name !== 'nodejs.util.inspect.custom' && !(s.name in FOREIGN) && s.file !== path.join('core', 'process-shared.ts'),
  )
  expect(elsewhere).toEqual([])
})
