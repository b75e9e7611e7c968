// Fails the running test file if any unhandledRejection or uncaughtException reached the process
// (recorded by __tests__/support/environment.js).
type Stray = { kind: string; error: unknown }

function check(): void {
  const list = (globalThis as { __strayErrors?: Stray[] }).__strayErrors
  if (list === undefined || list.length === 0) return
  const found = list.splice(0)
  const lines = found.map(({ kind, error }) => `${kind}: ${error instanceof Error ? error.stack : String(error)}`)
  throw new Error(`stray process errors:\n${lines.join('\n')}`)
}

afterEach(async () => {
  // Let a rejection from the test's last tick surface before checking.
  await new Promise((resolve) => setImmediate(resolve))
  check()
})
afterAll(check)
