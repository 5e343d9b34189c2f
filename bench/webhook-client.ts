/**
 * The baseline of the webhook benchmark, run as its own process: a plain
 * HTTP client loop that does what a delivery does on the wire and nothing
 * else. It POSTs `--body` (a file holding one stored delivery body) `--count`
 * times to `--url`, `--concurrency` requests at a time over kept-alive
 * connections, each signed (HMAC-SHA256) with the delivery headers, and
 * exits when every one was answered.
 */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'
import { signWebhookPayload } from '../packages/core/dist/index.js'

const { values: args } = parseArgs({
  options: { url: { type: 'string' }, body: { type: 'string' }, count: { type: 'string' }, concurrency: { type: 'string', default: '32' } }
})
const url = new URL(args.url ?? '')
const body = readFileSync(args.body ?? '')
const count = Number(args.count)
const concurrency = Number(args.concurrency)
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
let next = 0

async function post (n: number): Promise<void> {
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'Helpdesk-Webhooks/1',
    'helpdesk-event-id': String(n),
    'helpdesk-event-type': 'Tickets.TicketUpdated',
    'helpdesk-delivery-id': String(n),
    'helpdesk-delivery-attempt': '1',
    'helpdesk-signature': signWebhookPayload(body, ['whsec_benchmark'], Math.floor(Date.now() / 1000))
  }
  await new Promise<void>((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume()
      res.on('end', () => { res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)) })
    })
    req.on('error', reject)
    req.end(body)
  })
}

await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < count) await post(next++)
}))
agent.destroy()
