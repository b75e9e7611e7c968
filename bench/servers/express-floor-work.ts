// Express 5 floor that also does the Hono app's web-object work (Blob read back, stream pumped).
import express from 'express'
import { floorWithAppWork } from '../native.js'
import { ready } from './listen.js'

const app = express()
app.use(floorWithAppWork)
ready(app.listen(0, '127.0.0.1'))
