import { Hono } from 'hono'
import { fetchBridge, shadowTrial } from '../../src/index.js'

describe('shadow options', () => {
  it('refuse what is not a trial, with a clear error at start-up', () => {
    const hono = new Hono()
    expect(() => fetchBridge(hono, { shadow: {} as never })).toThrow('fetchBridge: shadow must be made by shadowTrial({ routes })')
    expect(() => fetchBridge({ fetch: () => undefined }, { shadow: shadowTrial({ routes: 'all' }) })).toThrow(
      'fetchBridge: the shadow option needs a Hono app',
    )
    expect(() => shadowTrial({} as never)).toThrow("shadowTrial: routes must be 'all' or an array of { route } rules")
    expect(() => shadowTrial({ routes: [{ route: 'users' }] })).toThrow("routes[0].route must be a Hono route pattern ('/users/:id') or '*', got users")
    expect(() => shadowTrial({ routes: [{ route: '/a', canary: 120 }] })).toThrow('routes[0].canary must be a number from 0 to 100, got 120')
    expect(() => shadowTrial({ routes: 'all', sampleRate: 2 })).toThrow('sampleRate must be a number from 0 to 1, got 2')
    expect(() => shadowTrial({ routes: 'all', timeoutMs: 0 })).toThrow('timeoutMs must be a number from 1')
    expect(() => shadowTrial({ routes: [{ route: '/a', methods: 'GET' as never }] })).toThrow('routes[0].methods must be an array of method names')
  })

  it('without the option the bridge is the plain one: no trial code runs per request', () => {
    const hono = new Hono()
    expect(fetchBridge(hono).name).toBe('fetchBridgeMiddleware')
    expect(fetchBridge(hono, { shadow: shadowTrial({ routes: 'all' }) }).name).toBe('shadowTrialBridge')
  })

  it('covers() says which Hono routes a trial names, for the report', () => {
    const trial = shadowTrial({ routes: [{ route: '/a' }, { route: '/b', shadow: false, canary: 5 }, { route: '/c', shadow: false }] })
    expect([trial.covers('GET', '/a'), trial.covers('POST', '/a'), trial.covers('POST', '/b'), trial.covers('GET', '/c')]).toEqual([true, false, true, false])
  })

  it('canaryShare() says which Hono routes a trial holds back for Express, any method, and their canary share', () => {
    const trial = shadowTrial({ routes: [{ route: '/a' }, { route: '/b', canary: 12.5 }, { route: '/c', shadow: false }] })
    expect(['/a', '/b', '/c', '/d'].map((route) => trial.canaryShare(route))).toEqual([0, 12.5, 0, undefined])
    expect(shadowTrial({ routes: [{ route: '*', canary: 100 }] }).canaryShare('/anything')).toBe(100)
  })
})
