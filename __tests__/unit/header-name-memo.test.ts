import { LightHeaders } from '../../src/core/light-headers.js'
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
