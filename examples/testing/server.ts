import { listenOrExit } from '../listen.js'
import { createApp, memoryStore } from './app.js'

listenOrExit(createApp(memoryStore(['try the tests: npm run example:testing'])), Number(process.env.PORT ?? 3000), (url) => [
  `testing example listening on ${url}`,
  `  try: curl ${url}/todos`,
])
