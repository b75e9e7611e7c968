import { createApp, memoryStore } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp(memoryStore(['try the tests: npm run example:testing'])).listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  console.log(`testing example listening on http://localhost:${actual}`)
  console.log(`  try: curl http://localhost:${actual}/todos`)
})
