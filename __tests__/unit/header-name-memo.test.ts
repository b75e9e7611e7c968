import fc from 'fast-check'
import { LightHeaders } from '../../src/core/light-headers.js'
import { LightResponse, OriginalResponse } from '../../src/index.js'
import { PlatformHeaders } from '../../src/core/platform.js'
import { apply, type Op } from '../helpers/headers-ops.js'

// The Headers class remembers each name it has checked (up to 1024 per process) and that name's last
// accepted value. Its own file: the property tests beside light-headers.test.ts fill that memory with
// random names, after which a new name would not be remembered and nothing here would be exercised.

it("checks every value a name is given, whatever value it was given before (a name's last value is remembered)", () => {
  // The same name set over and over, as cors and secure-headers do: the remembered value must vouch
  // for itself only.
  const sequence = ['same', 'same', ' padded ', 'same', 'bad\0', 'same', 'line\r\nbreak', '✓', 'é', 'same', 'x\ty']
  for (const method of ['set', 'append'] as const) {
    const light = new LightHeaders()
    const platform = new Headers()
    for (const value of sequence) {
      const op: Op = { op: method, name: 'X-Memo', value }
      expect(apply(light, op)).toEqual(apply(platform, op))
      expect([...light]).toEqual([...platform])
    }
  }
})

it('converts a value that is not a string for a name it has only looked up so far', () => {
  // A name read first (has, get) is remembered with no value of its own yet: undefined and null given
  // next are converted to strings as the platform does, never taken as a remembered value.
  for (const value of [undefined, null, 0] as unknown as string[]) {
    const light = new LightHeaders()
    const platform = new Headers()
    for (const op of [
      { op: 'has', name: 'X-Looked-Up' },
      { op: 'set', name: 'X-Looked-Up', value },
      { op: 'get', name: 'X-Looked-Up' },
      { op: 'entries' },
      { op: 'append', name: 'X-Looked-Up', value },
      { op: 'get', name: 'X-Looked-Up' },
    ] as Op[]) {
      expect(apply(light, op)).toEqual(apply(platform, op))
    }
    expect([...light]).toEqual([...platform])
  }
})

it('checks an init whose names and values were accepted before as the platform does, wherever the new or bad ones stand', () => {
  // A Response's init headers skip the checks for leading entries whose name and value are both
  // remembered. Drawn from a small pool so that they repeat: remembered entries before, between and
  // after new or bad ones, in records and pair lists, through the Headers and the Response constructor.
  const pool = fc.constantFrom('X-Seen', 'x-seen', 'Content-Type', 'X-Other', 'bad name', 'X-Ü', 'Cookie', 'cookie')
  const poolValues = fc.constantFrom('a', 'a', 'application/json', ' a ', 'bad\0', '✓', '')
  const inits = fc.oneof(
    fc.array(fc.tuple(pool, poolValues), { maxLength: 5 }),
    fc.dictionary(pool, poolValues, { maxKeys: 5 }),
  ) as fc.Arbitrary<HeadersInit>
  const Light = LightResponse as unknown as typeof Response
  const run = (make: () => Headers): unknown => {
    try {
      return [...make()]
    } catch (err) {
      return [(err as Error).constructor.name, (err as Error).message]
    }
  }
  fc.assert(
    fc.property(inits, (init) => {
      const expected = run(() => new PlatformHeaders(init))
      expect(run(() => new LightHeaders(init))).toEqual(expected)
      expect(run(() => new Light('x', { headers: init }).headers)).toEqual(
        run(() => new OriginalResponse('x', { headers: init }).headers),
      )
    }),
    { numRuns: 300 },
  )
})
