import http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge } from '../../src/index.js'
import { PER_OBJECT_SHAPES, settleBeforeExpress, settleShapes } from '../../src/core/object-shapes.js'

// Behind Express on V8 before 13 the bridge turns req and res into dictionary-mode objects (see
// src/core/object-shapes.ts). Read with V8's own intrinsics: the rule must match what this V8 does,
// the bridge must act exactly where it applies, and nothing of it may be visible to anyone.

v8.setFlagsFromString('--allow-natives-syntax')
const hasFastProperties = vm.runInNewContext('(o) => %HasFastProperties(o)') as (o: object) => boolean
const haveSameMap = vm.runInNewContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean

/** What Express does to each request: a new prototype, then properties added. */
class Thing {
  a = 1
}
function reprototyped(proto: object): { x?: number; y?: number } {
  const o = new Thing()
  Object.setPrototypeOf(o, proto)
  return o as { x?: number }
}

it('applies on exactly the V8 versions that give a re-prototyped object a hidden class of its own', () => {
  const proto = Object.create(http.IncomingMessage.prototype)
  const pairs = [0, 1, 2].map(() => [reprototyped(proto), reprototyped(proto)])
  for (const [a, b] of pairs) {
    a.x = 1
    b.x = 1
  }
  // Same class, same prototype, same property added: one hidden class on V8 13+, two before it.
  const shared = pairs.every(([a, b]) => haveSameMap(a, b))
  expect(PER_OBJECT_SHAPES).toBe(!shared)
})

it('makes a re-prototyped object a dictionary, with its keys, their order and values as they were', () => {
  const proto = Object.create(http.IncomingMessage.prototype)
  const o = reprototyped(proto) as Record<PropertyKey, unknown>
  o.x = 1
  o[Symbol.for('s')] = 2
  o.y = 3
  const before = Reflect.ownKeys(o).map((k) => [k, o[k]])
  settleShapes(o, {})
  expect(hasFastProperties(o)).toBe(false)
  expect(Reflect.ownKeys(o).map((k) => [k, o[k]])).toEqual(before)
  expect(Object.getPrototypeOf(o)).toBe(proto)
  // Also with nothing added since the prototype was replaced.
  const bare = reprototyped(proto)
  settleShapes(bare, {})
  expect(hasFastProperties(bare)).toBe(false)
})

it('leaves alone objects whose prototype is a class prototype, and objects that cannot be extended', () => {
  const plain = new http.IncomingMessage(null as never)
  settleShapes(plain, plain)
  expect(hasFastProperties(plain)).toBe(true)
  const sealed = reprototyped(Object.create(http.IncomingMessage.prototype))
  Object.preventExtensions(sealed)
  expect(() => settleShapes(sealed, {})).not.toThrow()
  expect(hasFastProperties(sealed)).toBe(true)
  // The class prototype just met is remembered; an object whose prototype was replaced still is settled.
  const after = reprototyped(Object.create(http.IncomingMessage.prototype))
  settleShapes(after, after)
  expect(hasFastProperties(after)).toBe(false)
})

it('settles objects about to be handed to Express whatever their prototype, keeping their keys', () => {
  const req = new http.IncomingMessage(null as never)
  const res = new http.ServerResponse(req)
  const keys = [Reflect.ownKeys(req), Reflect.ownKeys(res)]
  settleBeforeExpress(req, res)
  expect([hasFastProperties(req), hasFastProperties(res)]).toEqual([false, false])
  expect([Reflect.ownKeys(req), Reflect.ownKeys(res)]).toEqual(keys)
  // Still dictionaries after Express's setPrototypeOf.
  Object.setPrototypeOf(req, Object.create(http.IncomingMessage.prototype))
  expect(hasFastProperties(req)).toBe(false)
})

describe('a bridge in Express', () => {
  const seen: { req?: object; res?: object; keys?: PropertyKey[] } = {}
  const hono = new Hono<{ Bindings: { incoming: object; outgoing: object } }>()
  hono.get('/hono', (c) => {
    seen.req = c.env.incoming
    seen.res = c.env.outgoing
    return c.text('hono')
  })

  function app(withBridge: boolean): express.Express {
    const a = express()
    // Without the bridge a middleware in its place: Express's own key order depends on the layers.
    a.use(withBridge ? fetchBridge(hono) : (_req, _res, next) => next())
    a.get('/express', (req, res) => {
      seen.req = req
      seen.res = res
      seen.keys = Reflect.ownKeys(req)
      res.send('express')
    })
    return a
  }

  it('settles req and res on the V8 versions that need it, and only there', async () => {
    await request(app(true)).get('/hono').expect(200, 'hono')
    expect(hasFastProperties(seen.req!)).toBe(!PER_OBJECT_SHAPES)
    expect(hasFastProperties(seen.res!)).toBe(!PER_OBJECT_SHAPES)
    // Without the bridge Express's objects stay as they are.
    await request(app(false)).get('/express').expect(200, 'express')
    expect(hasFastProperties(seen.req!)).toBe(true)
  })

  it('hands a request on to Express with the same own keys, in the same order, as without the bridge', async () => {
    await request(app(false)).get('/express?q=1').set('x-a', 'b').expect(200, 'express')
    const without = seen.keys
    await request(app(true)).get('/express?q=1').set('x-a', 'b').expect(200, 'express')
    expect(seen.keys).toEqual(without)
    expect(hasFastProperties(seen.req!)).toBe(!PER_OBJECT_SHAPES)
  })

  it('leaves node:http objects alone (their prototypes are the classes)', async () => {
    const server = http.createServer(fetchBridge(hono, { fallthrough: false }))
    await request(server).get('/hono').expect(200, 'hono')
    expect(hasFastProperties(seen.req!)).toBe(true)
    expect(hasFastProperties(seen.res!)).toBe(true)
  })

  it("settles a front door's hand-on to an Express fallback on the V8 versions that need it, with the same keys", async () => {
    const fallback = app(false)
    await request(fallback).get('/express?q=1').expect(200, 'express')
    const alone = seen.keys
    const front = http.createServer(fetchBridge(hono, { fallback }))
    await request(front).get('/express?q=1').expect(200, 'express')
    expect(seen.keys).toEqual(alone)
    expect(hasFastProperties(seen.req!)).toBe(!PER_OBJECT_SHAPES)
    expect(hasFastProperties(seen.res!)).toBe(!PER_OBJECT_SHAPES)
    // A fallback that is not an Express app replaces no prototype: its objects are left alone.
    const plain = http.createServer(
      fetchBridge(hono, {
        fallback: (req, res) => {
          seen.req = req
          res.end('plain')
        },
      }),
    )
    await request(plain).get('/plain').expect(200, 'plain')
    expect(hasFastProperties(seen.req!)).toBe(true)
  })
})
