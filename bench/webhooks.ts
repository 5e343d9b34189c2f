/**
 * Webhook delivery benchmark (a script, not a test): enqueues N events with
 * one subscribed endpoint, then lets the job runner deliver them to a local
 * receiver (a separate process on 127.0.0.1 answering 200) and prints
 * deliveries per second and the worker's peak RSS, per database.
 *
 *   pnpm build && node --import tsx bench/webhooks.ts [--events 5000] [--db sqlite|postgres|both] [--concurrency 64]
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { parseArgs } from 'node:util'
import { createHelpdesk, gravatar, SYSTEM } from '../packages/core/dist/index.js'
import { registerWebhookDelivery } from '../packages/fastify/dist/index.js'
import { createKnexStore, createTestDatabase } from '../packages/store-knex/dist/index.js'

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    db: { type: 'string', default: 'both' },
    concurrency: { type: 'string', default: '64' }
  }
})
const EVENTS = Number(args.events)
const CONCURRENCY = Number(args.concurrency)

const RECEIVER = `
const { createServer } = require('node:http')
const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200).end() }) })
server.keepAliveTimeout = 60000
server.listen(0, '127.0.0.1', () => { process.stdout.write(String(server.address().port) + '\\n') })
`

async function startReceiver (): Promise<{ url: string, stop: () => void }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [chunk] = await once(child.stdout, 'data') as [Buffer]
  return { url: `http://127.0.0.1:${chunk.toString().trim()}/hook`, stop: () => { child.kill() } }
}

function ticket (id: number): Record<string, unknown> {
  const at = '2026-01-31 14:05:00'
  return {
    id, user_id: 1, creator_id: 1, title: `Ticket ${id}`, body: '<p>Benchmark body.</p>', status: 1, private: true,
    additional: { fields: {} }, category_id: 1, assigned_agent_id: null, agent_assigned_at: null, created_at: at, updated_at: at
  }
}

async function run (dialect: 'sqlite' | 'postgres'): Promise<{ dialect: string, events: number, seconds: number, perSecond: number, rssMb: number, enqueuePerSecond: number }> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  const receiver = await startReceiver()
  try {
    await store.migrate()
    const helpdesk = createHelpdesk({ store })
    const closeDelivery = registerWebhookDelivery(helpdesk, gravatar, { allowPrivateTargets: true, concurrency: CONCURRENCY })
    await helpdesk.webhooks.create(SYSTEM, { url: receiver.url, events: ['Tickets.TicketUpdated'] })
    // Enqueue: the events go through the recorder like any change (event log, delivery row, job), 100 per transaction.
    const enqueueStart = performance.now()
    for (let i = 0; i < EVENTS; i += 100) {
      await helpdesk.events.transaction(store, async (tx) => {
        for (let j = i; j < Math.min(EVENTS, i + 100); j++) {
          await helpdesk.events.emit(tx, { type: 'Tickets.TicketUpdated', actor_id: null, ticket: ticket(j + 1), category: { id: 1, name: 'Bench' }, changes: ['title'] })
        }
      })
    }
    const enqueueSeconds = (performance.now() - enqueueStart) / 1000
    let peakRss = process.memoryUsage().rss
    const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss) }, 100)
    const started = performance.now()
    helpdesk.jobs.start({ pollMs: 200 })
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const row = await store.knex('webhook_deliveries').whereNot('status', 'pending').count({ n: '*' }).first() as { n: number | string }
      if (Number(row.n) >= EVENTS) break
    }
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    await helpdesk.jobs.stop()
    await closeDelivery()
    const failed = await store.knex('webhook_deliveries').where('status', 'failed').count({ n: '*' }).first() as { n: number | string }
    if (Number(failed.n) > 0) throw new Error(`${failed.n} deliveries failed`)
    return { dialect, events: EVENTS, seconds, perSecond: EVENTS / seconds, rssMb: peakRss / 2 ** 20, enqueuePerSecond: EVENTS / enqueueSeconds }
  } finally {
    receiver.stop()
    await store.close()
    await db.drop()
  }
}

const dialects = args.db === 'both' ? ['sqlite', 'postgres'] as const : [args.db as 'sqlite' | 'postgres']
console.log(`| database | deliveries | seconds | deliveries/s | peak RSS (MB) | events enqueued/s |`)
console.log('|---|---|---|---|---|---|')
for (const dialect of dialects) {
  const r = await run(dialect)
  console.log(`| ${r.dialect} | ${r.events} | ${r.seconds.toFixed(1)} | ${Math.round(r.perSecond)} | ${Math.round(r.rssMb)} | ${Math.round(r.enqueuePerSecond)} |`)
}
