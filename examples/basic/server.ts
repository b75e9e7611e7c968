import { listenOrExit } from '../listen.js'
import { createApp } from './app.js'

listenOrExit(createApp(), Number(process.env.PORT ?? 3000), (url) => [
  `express-fetch-bridge demo listening on ${url}`,
  `  try: curl ${url}/  and  curl ${url}/legacy`,
])
