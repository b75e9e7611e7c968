// Express 5 with one native middleware answering the bench routes (writeHead + end).
import express from 'express'
import { floor } from '../native.js'
import { ready } from './listen.js'

const app = express()
app.use(floor)
ready(app.listen(0, '127.0.0.1'))
