import fc from 'fast-check'
import type { FastBody } from '../../src/response/response'
import { defaultContentType, LightResponse, OriginalResponse } from '../../src/response/response'

// Oracle: the platform Response, which derives a Content-Type from its body when the headers have none.

const blobType = fc.oneof(
  fc.constantFrom('', 'text/html', 'TEXT/HTML', 'application/json;charset=utf-8', 'image/png', 'a/b; x="y"', 'é/x', 'a\tb'),
  fc.string({ maxLength: 12 }),
)

const body: fc.Arbitrary<{ label: string; make: () => FastBody | undefined }> = fc.oneof(
  fc.string().map((s) => ({ label: `string ${JSON.stringify(s)}`, make: () => s })),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })).map((o) => ({
    label: 'URLSearchParams',
    make: () => new URLSearchParams(o),
  })),
  fc.tuple(fc.string({ maxLength: 8 }), fc.option(blobType)).map(([s, type]) => ({
    label: `Blob type ${JSON.stringify(type)}`,
    make: () => (type === null ? new Blob([s]) : new Blob([s], { type })),
  })),
  fc.uint8Array({ maxLength: 8 }).chain((bytes) =>
    fc.constantFrom(
      { label: 'ArrayBuffer', make: () => bytes.slice().buffer },
      { label: 'Uint8Array', make: () => bytes.slice() },
      { label: 'Int16Array', make: () => new Int16Array(4) },
      { label: 'Float64Array', make: () => new Float64Array(1) },
      { label: 'DataView', make: () => new DataView(bytes.slice().buffer) },
      { label: 'Buffer', make: () => Buffer.from(bytes) },
    ),
  ),
  fc.constantFrom({ label: 'null', make: () => null }, { label: 'undefined', make: () => undefined }),
)

const headersInit = fc.option(
  fc.array(fc.tuple(fc.constantFrom('content-type', 'Content-Type', 'x-a'), fc.constantFrom('text/x', 'a/b', '')), {
    maxLength: 2,
  }),
)

function platformType(b: FastBody | undefined): string | null {
  return new OriginalResponse(b as BodyInit | null | undefined).headers.get('content-type')
}

describe('defaultContentType against the platform Response', () => {
  it.each([
    ['a string', () => 'hi'],
    ['an empty string', () => ''],
    ['URLSearchParams', () => new URLSearchParams('a=1')],
    ['a Blob without type', () => new Blob(['x'])],
    ['a Blob with a type', () => new Blob(['x'], { type: 'text/html' })],
    ['a Blob with an upper-case type', () => new Blob(['x'], { type: 'Text/HTML' })],
    ['an ArrayBuffer', () => new ArrayBuffer(2)],
    ['a Uint8Array', () => new Uint8Array(2)],
    ['a DataView', () => new DataView(new ArrayBuffer(2))],
    ['null', () => null],
  ] as Array<[string, () => FastBody]>)('%s', (_, make) => {
    expect(defaultContentType(make()) ?? null).toBe(platformType(make()))
  })

  it('for any fast body', () => {
    fc.assert(
      fc.property(body, ({ make }) => {
        const b = make()
        expect(defaultContentType(b === undefined ? null : b) ?? null).toBe(platformType(make()))
      }),
      { numRuns: 200 },
    )
  })
})

describe('LightResponse headers against the platform Response', () => {
  it('for any fast body and headers init: the same entries (Blob types without edge whitespace)', () => {
    fc.assert(
      fc.property(body, headersInit, ({ label, make }, init) => {
        // Edge whitespace in a Blob type is the known difference below.
        if (/^Blob type "(\s.*|.*\s)"$/.test(label)) return
        const options = init === null ? undefined : { headers: init }
        const light = new LightResponse(make() as BodyInit | null | undefined, options)
        const real = new OriginalResponse(make() as BodyInit | null | undefined, options)
        expect([...light.headers]).toEqual([...real.headers])
      }),
      { numRuns: 200 },
    )
  })
})

// Known difference, reported to the lead (src/response/response.ts is being changed on another branch): the
// platform copies a Blob's type into Content-Type as it is, while LightResponse's `headers` goes through
// `Headers.set`, which trims it. Input: new Blob(['x'], { type: ' text/html ' }); expected (platform):
// headers.get('content-type') === ' text/html '; actual (LightResponse): 'text/html'. On the wire both
// read the same (receivers strip the spaces), so only app code reading `response.headers` sees it.
describe('LightResponse headers for a Blob type with edge whitespace', () => {
  it.failing.each([' text/html ', ' '])('keeps %j as the platform does', (type) => {
    const make = () => new Blob(['x'], { type })
    expect([...new LightResponse(make()).headers]).toEqual([...new OriginalResponse(make()).headers])
  })
})
