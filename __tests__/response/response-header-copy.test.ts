import express from 'express'
import request from 'supertest'
import { fetchBridge, OriginalResponse } from '../../src/index.js'

/** The init headers are copied when the Response is built, as the platform does. */

type Init = Record<string, string> | [string, string][] | Headers

const inits: [string, () => { init: Init; change: () => void }][] = [
  ['a plain object', () => {
    const init: Record<string, string> = { 'x-a': 'before' }
    return { init, change: () => { init['x-a'] = 'after'; init['x-late'] = '1' } }
  }],
  ['a list of pairs', () => {
    const init: [string, string][] = [['x-a', 'before']]
    return { init, change: () => { init[0][1] = 'after'; init.push(['x-late', '1']) } }
  }],
  ['a Headers object', () => {
    const init = new Headers({ 'x-a': 'before' })
    return { init, change: () => { init.set('x-a', 'after'); init.set('x-late', '1') } }
  }],
]

describe.each(inits)('init headers given as %s', (_name, make) => {
  it('are what the Response holds and sends, whatever happens to the init afterwards', async () => {
    const seen: Record<string, (string | null)[]> = {}
    const app = express()
    app.use(
      fetchBridge(() => {
        const { init, change } = make()
        const res = new Response('body', { headers: init })
        const real = new OriginalResponse('body', { headers: make().init })
        change()
        seen.light = [res.headers.get('x-a'), res.headers.get('x-late')]
        seen.real = [real.headers.get('x-a'), real.headers.get('x-late')]
        return res
      }),
    )
    const res = await request(app).get('/')
    expect(seen.light).toEqual(seen.real)
    expect(seen.light).toEqual(['before', null])
    expect(res.headers['x-a']).toBe('before')
    expect(res.headers['x-late']).toBeUndefined()
  })

  it('are copied even when nobody reads `headers` before the answer is written', async () => {
    const app = express()
    app.use(
      fetchBridge(async () => {
        const { init, change } = make()
        const res = new Response('body', { headers: init })
        change()
        return res
      }),
    )
    const res = await request(app).get('/')
    expect(res.headers['x-a']).toBe('before')
    expect(res.headers['x-late']).toBeUndefined()
  })
})

it('a clone keeps its own headers', async () => {
  const app = express()
  app.use(
    fetchBridge(() => {
      const original = new Response('body', { headers: { 'x-a': '1' } })
      const copy = original.clone()
      original.headers.set('x-a', 'changed on the original')
      return copy
    }),
  )
  const res = await request(app).get('/')
  expect(res.headers['x-a']).toBe('1')
})
