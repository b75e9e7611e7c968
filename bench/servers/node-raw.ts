// Raw node:http, no framework, with the app's own web-object work: the physical limit.
import { floorWithAppWork } from '../native.js'
import { serveListener } from './listen.js'

serveListener(floorWithAppWork)
