import { createServer } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const server = createServer({ secret: process.env.SESSION_SECRET })
server.listen(port, () => {
  const address = server.address()
  const actual = typeof address === 'object' && address ? address.port : port
  const url = `http://localhost:${actual}`
  console.log(`websockets example listening on ${url}`)
  console.log(`  log in:  curl -c jar -H 'content-type: application/json' -d '{"user":"alice"}' ${url}/login`)
  console.log(`  chat:    npm run example:websockets:client -- alice ${url}`)
})
