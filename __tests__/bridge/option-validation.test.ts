import express from 'express'
import { Hono } from 'hono'
import request from 'supertest'
import { fetchBridge, type FetchBridgeOptions } from '../../src/index.js'

// Every option is checked for its type when fetchBridge() is called, the same way: a value of the
// wrong type throws a TypeError naming the option, never silently acts as something else
// (`fallthrough: 'no'` used to act as true).

const wrong: [keyof FetchBridgeOptions, unknown][] = [
  ['overrideGlobalObjects', 'no'],
  ['overrideGlobalObjects', 0],
  ['overrideGlobalObjects', null],
  ['fallthrough', 'no'],
  ['fallthrough', 1],
  ['fallthrough', null],
  ['mountPath', 'strict'],
  ['mountPath', true],
  ['origin', 'not a url'],
  ['origin', 'ftp://example.com'],
  ['env', { requestId: 1 }],
  ['fallback', {}],
  ['onDispatch', 'yes'],
  ['drain', 5],
  ['drain', { maxBytes: -1 }],
  ['drain', { maxMs: '5' }],
  ['replay', 5],
  ['replay', { maxBytes: -1 }],
  ['replay', { maxBytes: Infinity }],
]

it.each(wrong)('%s: %p throws a TypeError naming the option', (name, value) => {
  expect(() => fetchBridge(new Hono(), { [name]: value } as FetchBridgeOptions)).toThrow(TypeError)
  expect(() => fetchBridge(new Hono(), { [name]: value } as FetchBridgeOptions)).toThrow(new RegExp(`\\b${name}\\b`))
})

const right: [keyof FetchBridgeOptions, unknown][] = [
  ['overrideGlobalObjects', true],
  ['overrideGlobalObjects', false],
  ['fallthrough', true],
  ['fallthrough', false],
  ['mountPath', 'keep'],
  ['origin', 'https://api.example.com'],
  ['env', () => ({})],
  ['fallback', express()],
  ['onDispatch', () => {}],
  ['drain', { maxBytes: 0, maxMs: 0 }],
  ['replay', { maxBytes: 32 * 1024 * 1024 }],
]

it.each(right)('%s: %p is accepted', (name, value) => {
  expect(typeof fetchBridge(new Hono(), { [name]: value } as FetchBridgeOptions)).toBe('function')
})

it("fallthrough: false sends the app's own 404 instead of falling through", async () => {
  const app = express().use(fetchBridge(new Hono(), { fallthrough: false })).use((_req, res) => {
    res.send('express')
  })
  const res = await request(app).get('/nothing')
  expect([res.status, res.text]).toEqual([404, '404 Not Found'])
})
