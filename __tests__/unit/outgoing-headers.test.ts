import { ServerResponse, type IncomingMessage } from 'node:http'
import fc from 'fast-check'
import vary from 'vary'
import type { FlatHeaders } from '../../src/core/headers'
import { mergeWithOutgoing, writeHead } from '../../src/response/outgoing-headers'

// How the app's headers meet those earlier middleware set on `res`, checked on the header block Node
// serializes (res._header), against the documented rules: Set-Cookie lines appended after the earlier
// ones, Vary merged as the `vary` package merges it, framing set earlier dropped, any other name the
// app sets replaces the earlier value.

type Earlier = Array<[name: string, value: string | string[]]>

function response(earlier: Earlier): ServerResponse {
  const req = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as unknown as IncomingMessage
  const res = new ServerResponse(req)
  res.sendDate = false
  // So that Node adds no Transfer-Encoding of its own: the block holds only what was set.
  res.useChunkedEncodingByDefault = false
  for (const [name, value] of earlier) res.setHeader(name, value)
  return res
}

/** The header lines Node would send, as [lower-case name, value]. */
function sent(res: ServerResponse): Array<[string, string]> {
  const block = (res as unknown as { _header: string })._header
  return block
    .split('\r\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line): [string, string] => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    })
    .filter(([name]) => name !== 'connection')
}

function valuesOf(lines: Array<[string, string]>, lower: string): string[] {
  return lines.filter(([name]) => name === lower).map(([, value]) => value)
}

/** Vary tokens, case-insensitively unique, in first-seen order. */
function varyTokens(values: string[]): string[] {
  const seen = new Map<string, string>()
  for (const value of values) {
    for (const token of value.split(',')) {
      const t = token.trim()
      if (t !== '' && !seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t)
    }
  }
  return [...seen.keys()]
}

const cookie = fc.tuple(fc.constantFrom('a', 'b', 'sid'), fc.nat(99)).map(([k, v]) => `${k}=${v}; Path=/`)
const varyValue = fc
  .array(fc.constantFrom('Origin', 'origin', 'Accept', 'Accept-Encoding', 'Cookie', '*'), { minLength: 1, maxLength: 3 })
  .chain((tokens) => fc.constantFrom(', ', ',', ' , ').map((sep) => tokens.join(sep)))
const plain = fc.constantFrom('1', 'two', 'no-store')

const earlierHeader: fc.Arbitrary<[string, string | string[]]> = fc.oneof(
  fc.array(cookie, { minLength: 1, maxLength: 3 }).map((c): [string, string[]] => ['set-cookie', c]),
  cookie.map((c): [string, string] => ['Set-Cookie', c]),
  varyValue.map((v): [string, string] => ['Vary', v]),
  fc.constantFrom<[string, string]>(['content-length', '5'], ['transfer-encoding', 'chunked'], ['X-Powered-By', 'Express']),
  fc.tuple(fc.constantFrom('x-a', 'Cache-Control'), plain),
  fc.array(plain, { minLength: 2, maxLength: 2 }).map((v): [string, string[]] => ['x-a', v]),
)
const appHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  cookie.map((c): [string, string] => [c.startsWith('a') ? 'Set-Cookie' : 'set-cookie', c]),
  fc.tuple(fc.constantFrom('x-a', 'X-A', 'cache-control', 'content-type', 'x-b'), plain),
)
// The app's Vary comes as one line, as a Headers object gives it (a second one is a separate case).
const appHeaders = fc
  .tuple(fc.array(appHeader, { maxLength: 5 }), fc.option(varyValue), fc.nat(5))
  .map(([lines, v, at]) => {
    const all = [...lines]
    if (v !== null) all.splice(Math.min(at, all.length), 0, ['Vary', v])
    return all
  })

/** The documented result for `earlier` on res and the app's `app` lines. */
function expected(earlier: Earlier, app: Array<[string, string]>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [name, value] of earlier) out.set(name.toLowerCase(), Array.isArray(value) ? value : [value])
  out.delete('content-length')
  out.delete('transfer-encoding')
  const appNames = new Set(app.map(([n]) => n.toLowerCase()))
  for (const lower of appNames) {
    const values = app.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v)
    if (lower === 'set-cookie') out.set(lower, [...(out.get(lower) ?? []), ...values])
    else if (lower === 'vary' && out.has('vary')) out.set(lower, [vary.append(out.get('vary')!.join(', '), values[0])])
    else out.set(lower, values)
  }
  return out
}

describe('writeHead + mergeWithOutgoing against the documented rules and the vary package', () => {
  it('for any headers set earlier and any app headers', () => {
    fc.assert(
      fc.property(fc.array(earlierHeader, { maxLength: 5 }), appHeaders, (earlier, app) => {
        const res = response(earlier)
        writeHead(res, 200, '', app.flat())
        const lines = sent(res)
        const want = expected(earlier, app)
        expect([...new Set(lines.map(([n]) => n))].sort()).toEqual([...want.keys()].sort())
        for (const [lower, values] of want) {
          const got = valuesOf(lines, lower)
          if (lower === 'vary') expect(varyTokens(got)).toEqual(varyTokens(values))
          else expect(got).toEqual(values)
        }
      }),
      { numRuns: 200 },
    )
  })

  it.each([
    ['Origin', 'Accept', 'Origin, Accept'],
    ['Origin', 'origin', 'Origin'],
    ['Origin', '*', '*'],
    ['*', 'Accept', '*'],
    ['Accept, Origin', 'Origin, Cookie', 'Accept, Origin, Cookie'],
  ])('merges Vary %j (earlier) with %j (app) as vary.append does', (earlier, app, result) => {
    const flat: FlatHeaders = ['Vary', app]
    mergeWithOutgoing(response([['Vary', earlier]]), flat)
    expect(varyTokens([flat[1]])).toEqual(varyTokens([vary.append(earlier, app)]))
    expect(flat[1]).toBe(result)
  })

  it('puts the earlier Set-Cookie lines before the app ones', () => {
    const res = response([['set-cookie', ['a=1', 'b=2']]])
    const flat: FlatHeaders = ['x', 'y', 'Set-Cookie', 'c=3']
    mergeWithOutgoing(res, flat)
    expect(flat).toEqual(['x', 'y', 'set-cookie', 'a=1', 'set-cookie', 'b=2', 'Set-Cookie', 'c=3'])
    expect(res.hasHeader('set-cookie')).toBe(false)
  })

  it('keeps every token of two app Vary lines and the earlier one (a pair list may repeat it)', () => {
    const res = response([['Vary', 'Origin']])
    writeHead(res, 200, '', ['Vary', 'Accept', 'Vary', 'Cookie'])
    // Vary lists a set of names: the order of the tokens across lines carries no meaning.
    const want = varyTokens([vary.append(vary.append('Origin', 'Accept'), 'Cookie')])
    expect(varyTokens(valuesOf(sent(res), 'vary')).sort()).toEqual(want.sort())
  })
})
