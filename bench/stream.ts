/**
 * Write -> event-stream client delay: starts `helpdesk serve` on a fresh
 * database, connects N Server-Sent Events clients (default 1,000: customers
 * following a public ticket, 5 streams each), then posts replies through the
 * API one after the other and times, for every client, the moment the
 * reply's `ticket` event arrives after the POST was sent. Prints p50/p99/max
 * per database with the server's RSS; writes bench/results/<time>-stream.{json,md}.
 *
 *   pnpm bench:stream [--db sqlite|postgres|both] [--clients 1000] [--writes 50] [--interval 100]
 *
 * The clients run in this process (like autocannon in `run.ts`): the figures
 * include their own parsing, on the same machine as the server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createArgon2Hasher, createHelpdesk, createLocalFileStorage, Role, SYSTEM } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { openStream, type SseStream } from '../packages/fastify/test/sse-client.js'
import { pgAdminUrl, type Db } from './bench-data.js'
import { RESULTS_DIR } from './paths.js'
import { rssMiB, startHelpdesk, type RunningServer } from './servers.js'

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    db: { type: 'string', default: 'both' },
    clients: { type: 'string', default: '1000' },
    writes: { type: 'string', default: '50' },
    interval: { type: 'string', default: '100' }
  }
})
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : args.db === 'sqlite' || args.db === 'postgres' ? [args.db] : []
if (dbs.length === 0) throw new Error(`--db must be sqlite, postgres or both, got "${args.db ?? ''}"`)
const clients = Number(args.clients)
const writes = Number(args.writes)
const intervalMs = Number(args.interval)
/** The server's default cap of open streams per user. */
const STREAMS_PER_USER = 5

interface StreamResult {
  db: Db
  clients: number
  writes: number
  deliveries: number
  missing: number
  p50Ms: number
  p99Ms: number
  /** Per write, the first client's delay (the write, its commit and the signal) at p50; the rest is fan-out. */
  firstP50Ms: number
  maxMs: number
  rssIdleMiB: number | null
  rssConnectedMiB: number | null
  rssAfterMiB: number | null
}

async function freshDatabase (db: Db): Promise<{ url: string, drop: () => Promise<void> }> {
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-bench-stream-'))
    return { url: `sqlite:${join(dir, 'stream.sqlite')}`, drop: async () => { rmSync(dir, { recursive: true, force: true }) } }
  }
  const name = `helpdesk_bench_stream_${Date.now()}`
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: pgAdminUrl() })
    await client.connect()
    try { await client.query(sql) } finally { await client.end() }
  }
  await admin(`create database "${name}"`)
  const url = new URL(pgAdminUrl())
  url.pathname = `/${name}`
  return { url: url.toString(), drop: async () => { await admin(`drop database if exists "${name}" with (force)`) } }
}

/** An administrator and enough customers for `clients` streams, each with a token (made in-process: no password hashing on the path). */
async function people (url: string): Promise<{ admin: string, customers: Array<{ id: number, token: string }> }> {
  const store = createKnexStore({ url })
  try {
    await store.migrate()
    const helpdesk = createHelpdesk({ store, hasher: createArgon2Hasher({ memoryCost: 1024, timeCost: 1 }), fileStorage: createLocalFileStorage(tmpdir()) })
    const password = 'bench password'
    const adminUser = await helpdesk.agents.create(SYSTEM, { first_name: 'Bench', last_name: 'Admin', email: 'admin@bench.test', password }, Role.Admin, false)
    const admin = (await helpdesk.auth.createToken(adminUser, 'bench')).token
    const customers: Array<{ id: number, token: string }> = []
    for (let i = 0; i < Math.ceil(clients / STREAMS_PER_USER); i++) {
      const user = await helpdesk.customers.create(SYSTEM, { first_name: 'Reader', last_name: String(i), email: `reader${i}@bench.test`, password }, false)
      customers.push({ id: user.id, token: (await helpdesk.auth.createToken(user, 'bench')).token })
    }
    return { admin, customers }
  } finally {
    await store.close()
  }
}

async function api (server: RunningServer, token: string, method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body)
  })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: unknown }).data
}

function percentile (sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

async function measure (db: Db): Promise<StreamResult> {
  const database = await freshDatabase(db)
  let server: RunningServer | null = null
  const streams: SseStream[] = []
  try {
    const { admin, customers } = await people(database.url)
    server = await startHelpdesk(database.url, admin, '/api/v1/auth/me')
    const rssIdleMiB = rssMiB(server.pid)
    const category = await api(server, admin, 'POST', '/categories', { name: 'Bench' })
    const owner = customers[0]
    if (owner === undefined) throw new Error('--clients must be at least 1')
    const ticket = await api(server, admin, 'POST', '/tickets', { title: 'Followed by everyone', body: 'A public ticket.', category: category.id, customer_id: owner.id, private: false })

    // Arrival times per comment id, recorded by whichever client sees the event.
    const arrivals = new Map<number, number[]>()
    for (let opened = 0; opened < clients; opened += 50) {
      const batch = Array.from({ length: Math.min(50, clients - opened) }, async (_, i) => {
        const customer = customers[Math.floor((opened + i) / STREAMS_PER_USER)]
        if (customer === undefined) throw new Error('not enough customers')
        const stream = await openStream(`${server?.url ?? ''}/api/v1/events`, { authorization: `Bearer ${customer.token}` }, (e) => {
          if (e.event !== 'ticket' || e.data.comment === undefined) return
          const at = performance.now()
          const list = arrivals.get(e.data.comment.id as number) ?? []
          list.push(at)
          arrivals.set(e.data.comment.id as number, list)
        })
        if (stream.status !== 200) throw new Error(`stream ${opened + i}: ${stream.status} ${JSON.stringify(stream.body)}`)
        streams.push(stream)
      })
      await Promise.all(batch)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    const rssConnectedMiB = rssMiB(server.pid)

    const sent: Array<{ id: number, at: number }> = []
    for (let i = 0; i < writes; i++) {
      const at = performance.now()
      const comment = await api(server, admin, 'POST', `/tickets/${ticket.id as number}/comments`, { body: `Reply ${i}`, type: 1, private: false })
      sent.push({ id: comment.id as number, at })
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
    // Give the last deliveries time to land.
    const deadline = performance.now() + 10_000
    while (performance.now() < deadline && sent.some((s) => (arrivals.get(s.id)?.length ?? 0) < clients)) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const rssAfterMiB = rssMiB(server.pid)
    const delays = sent.flatMap((s) => (arrivals.get(s.id) ?? []).map((arrived) => arrived - s.at)).sort((a, b) => a - b)
    return {
      db,
      clients,
      writes,
      deliveries: delays.length,
      missing: clients * writes - delays.length,
      p50Ms: percentile(delays, 50),
      p99Ms: percentile(delays, 99),
      firstP50Ms: percentile(sent.map((s) => Math.min(...(arrivals.get(s.id) ?? [Number.NaN])) - s.at).sort((a, b) => a - b), 50),
      maxMs: delays[delays.length - 1] ?? Number.NaN,
      rssIdleMiB,
      rssConnectedMiB,
      rssAfterMiB
    }
  } finally {
    for (const stream of streams) stream.close()
    await server?.stop()
    await database.drop()
  }
}

function round (value: number | null): string {
  return value === null || Number.isNaN(value) ? '-' : value.toFixed(1)
}

const results: StreamResult[] = []
for (const db of dbs) {
  process.stderr.write(`stream bench on ${db}: ${clients} clients, ${writes} writes every ${intervalMs} ms\n`)
  results.push(await measure(db))
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`
const table = [
  '| database | clients | writes | deliveries (missing) | p50 ms | p99 ms | max ms | first client p50 ms | server RSS idle / connected / after, MiB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.db} | ${r.clients} | ${r.writes} | ${r.deliveries} (${r.missing}) | ${round(r.p50Ms)} | ${round(r.p99Ms)} | ${round(r.maxMs)} | ${round(r.firstP50Ms)} | ${round(r.rssIdleMiB)} / ${round(r.rssConnectedMiB)} / ${round(r.rssAfterMiB)} |`)
].join('\n')
process.stdout.write(`\nWrite -> event-stream client (${machine})\n\n${table}\n`)
mkdirSync(RESULTS_DIR, { recursive: true })
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
writeFileSync(join(RESULTS_DIR, `${stamp}-stream.json`), JSON.stringify({ machine, intervalMs, results }, null, 2))
writeFileSync(join(RESULTS_DIR, `${stamp}-stream.md`), `# Write -> event-stream client, ${stamp}\n\n${machine}\n\n${table}\n`)
