import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createApp().listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`finish-migration example listening on ${url}`)
  console.log(`  try: curl -i -c jar -H 'content-type: application/json' -d '{"username":"alice","password":"wonderland"}' ${url}/login`)
  console.log(`       curl -b jar ${url}/api/me ; curl -b jar ${url}/legacy/report`)
})
