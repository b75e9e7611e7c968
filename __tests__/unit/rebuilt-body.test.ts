import { Readable } from 'node:stream'
import type { RequestHandler } from 'express'
import express from 'express'
import fc from 'fast-check'
import { rebuildBody, type ParsedRequest } from '../../src/request/rebuilt-body'

// express4 ships no types: it has Express 5's parser API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express4 = require('express4') as typeof express

// Oracle: the parser that filled req.body in the first place. Parsing the rebuilt bytes with it must
// give req.body back, or the app would see another body than Express routes saw.

/** Run an Express body parser over `bytes` (no socket: a stream with the request's headers). */
function parse(parser: RequestHandler, type: string, bytes: Buffer): Promise<unknown> {
  const stream = new Readable({ read() {} })
  stream.push(bytes)
  stream.push(null)
  // on-finished reads a request without a readable socket as already read.
  const headers = { 'content-type': type, 'content-length': String(bytes.length) }
  const req = Object.assign(stream, { headers, method: 'POST', url: '/', socket: { readable: true } }) as unknown as ParsedRequest
  return new Promise((resolve, reject) => {
    parser(req as never, {} as never, (err?: unknown) => (err ? reject(err) : resolve(req.body)))
  })
}

function rebuilt(type: string, body: unknown): Buffer {
  return rebuildBody({ headers: { 'content-type': type }, body } as unknown as ParsedRequest)
}

const jsonParsers: Array<[string, RequestHandler]> = [
  ['express.json()', express.json()],
  ['express4.json()', express4.json()],
]
const formParsers: Array<[string, RequestHandler]> = [
  ['express.urlencoded({ extended: true })', express.urlencoded({ extended: true })],
  ['express.urlencoded({ extended: false })', express.urlencoded({ extended: false })],
  ['express4.urlencoded({ extended: true })', express4.urlencoded({ extended: true })],
  ['express4.urlencoded({ extended: false })', express4.urlencoded({ extended: false })],
]

const JSON_TYPE = 'application/json'
const FORM_TYPE = 'application/x-www-form-urlencoded'

describe.each(jsonParsers)('a JSON body from %s', (_, parser) => {
  it('for any JSON object or array: parsing the rebuilt bytes gives req.body back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())), async (value) => {
        const body = await parse(parser, JSON_TYPE, Buffer.from(JSON.stringify(value)))
        expect(await parse(parser, JSON_TYPE, rebuilt(JSON_TYPE, body))).toEqual(body)
      }),
      { numRuns: 200 },
    )
  })
})

// A form body as a browser or client sends it: keys with brackets (`a[b]`, `a[]`, `a[0][c]`), repeats.
const formKey = fc.oneof(
  fc.constantFrom('a', 'b', 'tags', 'x y', 'é'),
  fc.tuple(fc.constantFrom('a', 'b'), fc.array(fc.constantFrom('[]', '[0]', '[1]', '[c]', '[d]'), { minLength: 1, maxLength: 3 })).map(
    ([k, path]) => k + path.join(''),
  ),
)
const formValue = fc.string({ unit: fc.constantFrom('1', 'v', ' ', '&', '=', '+', '%', 'é', '[', ']'), maxLength: 4 })
const formText = fc.array(fc.tuple(formKey, formValue), { minLength: 1, maxLength: 6 }).map((pairs) => {
  const params = new URLSearchParams()
  for (const [k, v] of pairs) params.append(k, v)
  return params.toString()
})

describe.each(formParsers)('a urlencoded body from %s', (_, parser) => {
  it.each(['tags[]=x', 'tags[]=x&tags[]=y', 'a=1&a=2', 'a[0][b]=1&a[1]=2', 'a[]=1&a[1][d]=2', 'a[b][]=x', 'x=a%26b%3Dc'])(
    '%s round-trips',
    async (text) => {
      const body = await parse(parser, FORM_TYPE, Buffer.from(text))
      expect(await parse(parser, FORM_TYPE, rebuilt(FORM_TYPE, body))).toEqual(body)
    },
  )

  it('for any form the client sent: parsing the rebuilt bytes gives req.body back', async () => {
    await fc.assert(
      fc.asyncProperty(formText, async (text) => {
        const body = await parse(parser, FORM_TYPE, Buffer.from(text))
        expect(await parse(parser, FORM_TYPE, rebuilt(FORM_TYPE, body))).toEqual(body)
      }),
      { numRuns: 200 },
    )
  })
})

describe('a text body', () => {
  it.each(['utf-8', 'iso-8859-1', 'utf-16le'])('for any text decoded as %s: the same bytes', async (charset) => {
    const parser = express.text({ type: () => true, defaultCharset: charset })
    const type = `text/plain; charset=${charset}`
    const unit = charset === 'iso-8859-1' ? fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) : fc.string({ unit: 'grapheme', maxLength: 1 })
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 12 }), async (s) => {
        const body = await parse(parser, type, Buffer.from(s, charset === 'iso-8859-1' ? 'latin1' : (charset as BufferEncoding)))
        expect(await parse(parser, type, rebuilt(type, body))).toBe(body)
      }),
      { numRuns: 100 },
    )
  })
})
