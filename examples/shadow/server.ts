import { createApp, createTrial } from './app.js'

const trial = createTrial()
const app = createApp(trial)

const port = Number(process.env.PORT ?? 3000)
const server = app.listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`shadow example listening on ${url}`)
  console.log(`  try: curl ${url}/products/1 ; curl -H 'x-user-id: 7' ${url}/catalog ; curl ${url}/migration ; curl ${url}/metrics`)
})
