/**
 * The receiving end of the webhook benchmarks, run as its own process: a
 * `node:http` server on 127.0.0.1 that answers every POST 200 at once (a
 * receiver that queues the work for later, as docs/webhooks.md advises), and
 * counts what it received. `GET /stats` tells the count and the milliseconds
 * between the first and the last POST; `DELETE /stats` starts counting
 * again. Prints its port on stdout.
 */
import { createServer } from 'node:http'

let count = 0
let first = 0
let last = 0
let bytes = 0
const server = createServer((request, response) => {
  if (request.url === '/stats') {
    if (request.method === 'DELETE') count = first = last = bytes = 0
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count, ms: last - first, bytes }))
    return
  }
  request.on('data', (chunk: Buffer) => { bytes += chunk.length })
  request.on('end', () => {
    const now = performance.now()
    if (count === 0) first = now
    count++
    last = now
    response.writeHead(200).end()
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address !== null ? address.port : 0}\n`)
})
process.on('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)) })
