import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from './src/index.js'
import { migrationReport } from './src/migration-report.js'
const express4 = require('express4')
for (const ex of [express, express4]) {
  const hono = new Hono()
  hono.use('*', async (c, next) => { await next() })
  hono.get('/users', (c) => c.text('x'))
  hono.get('/items/:id{[0-9]+}', (c) => c.text('x'))
  hono.get('/api/v1/orders/:id', (c) => c.text('x'))
  hono.delete('/users/:id', (c) => c.text('x'))
  hono.get('/legacy', (c) => c.text('x'))
  const app = ex()
  app.get('/legacy', (_req: any, res: any) => res.send('x'))
  app.use(fetchBridge(hono))
  app.get('/users', (_req: any, res: any) => res.send('x'))
  app.post('/users', (_req: any, res: any) => res.send('x'))
  app.get('/items/:id', (_req: any, res: any) => res.send('x'))
  const r = ex.Router()
  r.get('/orders/:id', (_req: any, res: any) => res.send('x'))
  r.get('/orders', (_req: any, res: any) => res.send('x'))
  const sub = ex()
  sub.get('/ping', (_req: any, res: any) => res.send('x'))
  app.use('/api/:version', r)
  app.use('/admin', sub)
  app.get(/^\/re/, (_req: any, res: any) => res.send('x'))
  const rep = migrationReport(app)
  console.log(rep.format())
}
