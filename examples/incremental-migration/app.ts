import express from 'express'
import { fetchBridge } from 'express-fetch-bridge'
import { createDb, type Db } from './db.js'
import { movedRoutes } from './hono.js'
import { errorHandler, legacyRoutes } from './legacy.js'

/**
 * A legacy Express app with the bridge in front: body parsers and other middleware stay, the Hono app
 * answers the routes it has, everything else falls through to the Express routes, and every error from
 * either side reaches the same Express error handler.
 */
export function createApp(db: Db = createDb()) {
  const app = express()
  app.use(express.json())
  app.use(express.urlencoded({ extended: true }))

  app.use(fetchBridge(movedRoutes(db)))
  app.use(legacyRoutes(db))

  app.use(errorHandler)
  return app
}
