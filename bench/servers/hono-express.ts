// @hono/node-server's getRequestListener as Express 5 middleware.
import express from 'express'
import { getRequestListener } from '@hono/node-server'
import { createHono } from '../app.js'
import { ready } from './listen.js'

const app = express()
app.use(getRequestListener(createHono().fetch))
ready(app.listen(0, '127.0.0.1'))
