// express-fetch-bridge as Express 5 middleware. bench/build.ts points this import at dist/esm.
import express from 'express'
import { fetchBridge } from '../../src/index.js'
import { createHono } from '../app.js'
import { ready } from './listen.js'

const app = express()
app.use(fetchBridge(createHono()))
ready(app.listen(0, '127.0.0.1'))
