import { listenOrExit } from '../listen.js'
import { createApp } from './app.js'

listenOrExit(createApp(), Number(process.env.PORT ?? 3000), (url) => [
  `shared-auth example listening on ${url}`,
  `  try: curl -H 'Authorization: Bearer alice-token' ${url}/api/profile`,
])
