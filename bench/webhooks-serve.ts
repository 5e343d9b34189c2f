/**
 * Webhook deliveries the way users run them: `helpdesk serve` (the built
 * command, its own process) on a fresh database with a backlog of N events
 * for one endpoint, delivering to a receiver in a third process
 * (`webhook-sink.ts`, answering 200). The rate is the receiver's: N POSTs over
 * the time from the first to the last. The baseline, measured in the same
 * round against the same receiver: a plain HTTP client loop
 * (`webhook-client.ts`, its own process) sending the same body N times,
 * signed, over kept-alive connections, as many at once as the server's
 * deliveries (64). Rounds alternate the two; the table shows the median
 * round and the range. Writes bench/results/<time>-webhooks.{json,md}.
 *
 *   pnpm bench:webhooks [--db sqlite|postgres|both] [--events 5000] [--rounds 3] [--profile DIR] [--compare OTHER/bin/helpdesk.js]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createArgon2Hasher, createHelpdesk, createLocalFileStorage, Role, SYSTEM } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { pgAdminUrl, type Db } from './bench-data.js'
import { RESULTS_DIR } from './paths.js'
import { cpuMicros, rssMiB, startHelpdesk } from './servers.js'

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    db: { type: 'string', default: 'both' },
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    /** Writes a CPU profile of each `helpdesk serve` into this directory (`--cpu-prof`). */
    profile: { type: 'string' },
    /** Another build of the command (its `bin/helpdesk.js`, e.g. the previous release's), measured in the same rounds. */
    compare: { type: 'string' }
  }
})
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : args.db === 'sqlite' || args.db === 'postgres' ? [args.db] : []
if (dbs.length === 0) throw new Error(`--db must be sqlite, postgres or both, got "${args.db ?? ''}"`)
const EVENTS = Number(args.events)
const ROUNDS = Number(args.rounds)
/** The delivery handler's default concurrency (`webhooks.concurrency`), which the baseline client matches. */
const CONCURRENCY = 64

const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url))

/** A child process running a TypeScript file of bench/ through tsx. */
function child (file: string, argv: string[], stdout: 'pipe' | 'ignore'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', here(file), ...argv], { stdio: ['ignore', stdout, 'inherit'] })
}

interface Sink { url: string, stats: () => Promise<{ count: number, ms: number }>, reset: () => Promise<void>, stop: () => Promise<void> }

async function startSink (): Promise<Sink> {
  const process = child('./webhook-sink.ts', [], 'pipe')
  const [chunk] = await once(process.stdout!, 'data') as [Buffer]
  const base = `http://127.0.0.1:${chunk.toString().trim()}`
  return {
    url: `${base}/hook`,
    stats: async () => await (await fetch(`${base}/stats`)).json() as { count: number, ms: number },
    reset: async () => { await fetch(`${base}/stats`, { method: 'DELETE' }) },
    stop: async () => { process.kill(); await once(process, 'exit') }
  }
}

async function freshDatabase (db: Db): Promise<{ url: string, drop: () => Promise<void> }> {
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-bench-webhooks-'))
    return { url: `sqlite:${join(dir, 'webhooks.sqlite')}`, drop: async () => { rmSync(dir, { recursive: true, force: true }) } }
  }
  const name = `helpdesk_bench_webhooks_${Date.now()}`
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

function ticket (id: number): Record<string, unknown> {
  const at = '2026-01-31 14:05:00'
  return {
    id, user_id: 1, creator_id: 1, title: `Ticket ${id}`, body: '<p>Benchmark body.</p>', status: 1, private: true,
    additional: { fields: {} }, category_id: 1, assigned_agent_id: null, agent_assigned_at: null, created_at: at, updated_at: at
  }
}

/** An administrator's token, one endpoint for the sink, and N logged events each with its delivery and job (100 per transaction). */
async function backlog (url: string, sinkUrl: string): Promise<string> {
  const store = createKnexStore({ url })
  try {
    await store.migrate()
    const helpdesk = createHelpdesk({ store, hasher: createArgon2Hasher({ memoryCost: 1024, timeCost: 1 }), fileStorage: createLocalFileStorage(tmpdir()) })
    const admin = await helpdesk.agents.create(SYSTEM, { first_name: 'Bench', last_name: 'Admin', email: 'admin@bench.test', password: 'bench password' }, Role.Admin, false)
    const token = (await helpdesk.auth.createToken(admin, 'bench')).token
    await helpdesk.webhooks.create(SYSTEM, { url: sinkUrl, events: ['Tickets.TicketUpdated'] })
    for (let i = 0; i < EVENTS; i += 100) {
      await helpdesk.events.transaction(store, async (tx) => {
        for (let j = i; j < Math.min(EVENTS, i + 100); j++) {
          await helpdesk.events.emit(tx, { type: 'Tickets.TicketUpdated', actor_id: null, ticket: ticket(j + 1), category: { id: 1, name: 'Bench' }, changes: ['title'] })
        }
      })
    }
    return token
  } finally {
    await store.close()
  }
}

async function deliveryCounts (url: string): Promise<{ succeeded: number, body: string }> {
  const store = createKnexStore({ url })
  try {
    const row = await store.knex('webhook_deliveries').where('status', 'succeeded').count({ n: '*' }).first() as { n: number | string }
    const body = await store.knex('webhook_deliveries').whereNotNull('body').select('body').first() as { body: string } | undefined
    return { succeeded: Number(row.n), body: body?.body ?? '' }
  } finally {
    await store.close()
  }
}

async function until (what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = performance.now()
  while (!await check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

interface Served { perSecond: number, cpuUsPerDelivery: number | null, rssMiB: number | null }
interface Round { helpdesk: Served, compared: Served | null, baseline: number }

/** Serves a fresh backlog with `bin` and measures the rate at the sink; also leaves one delivered body in `bodyFile`. */
async function serve (db: Db, sink: Sink, bodyFile: string, bin?: string): Promise<Served> {
  const database = await freshDatabase(db)
  try {
    await sink.reset()
    const token = await backlog(database.url, sink.url)
    const server = await startHelpdesk(database.url, token, '/api/v1/health', {
      env: { HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1' },
      nodeArgs: args.profile !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [],
      ...(bin !== undefined ? { bin } : {})
    })
    let served: Served
    try {
      const cpuAtReady = cpuMicros(server.pid)
      const countAtReady = (await sink.stats()).count
      await until('the deliveries', async () => (await sink.stats()).count >= EVENTS, 600_000)
      const cpuAtEnd = cpuMicros(server.pid)
      const { count, ms } = await sink.stats()
      served = {
        perSecond: (count - 1) / (ms / 1000),
        cpuUsPerDelivery: cpuAtReady !== null && cpuAtEnd !== null && count > countAtReady ? (cpuAtEnd - cpuAtReady) / (count - countAtReady) : null,
        rssMiB: rssMiB(server.pid)
      }
    } finally {
      await server.stop()
    }
    const { succeeded, body } = await deliveryCounts(database.url)
    if (succeeded !== EVENTS) throw new Error(`${succeeded} of ${EVENTS} deliveries succeeded`)
    writeFileSync(bodyFile, body)
    return served
  } finally {
    await database.drop()
  }
}

/** The same receiver fed by the plain client loop: the same body, as many requests at once. */
async function baseline (sink: Sink, bodyFile: string): Promise<number> {
  await sink.reset()
  const client = child('./webhook-client.ts', ['--url', sink.url, '--body', bodyFile, '--count', String(EVENTS), '--concurrency', String(CONCURRENCY)], 'ignore')
  const [code] = await once(client, 'exit') as [number]
  if (code !== 0) throw new Error(`the baseline client exited with ${code}`)
  const { count, ms } = await sink.stats()
  return (count - 1) / (ms / 1000)
}

async function round (db: Db, sink: Sink, bodyFile: string): Promise<Round> {
  const helpdesk = await serve(db, sink, bodyFile)
  const compared = args.compare !== undefined ? await serve(db, sink, bodyFile, args.compare) : null
  return { helpdesk, compared, baseline: await baseline(sink, bodyFile) }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const pct = (n: number): string => `${Math.round(n * 100)}%`
const spread = (values: number[], show: (n: number) => string): string => `${show(median(values))} (${show(Math.min(...values))}–${show(Math.max(...values))})`

const sink = await startSink()
const work = mkdtempSync(join(tmpdir(), 'helpdesk-bench-webhook-body-'))
const results: Array<{ db: Db, rounds: Round[] }> = []
const load = loadavg()
try {
  for (const db of dbs) {
    const rounds: Round[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const r = await round(db, sink, join(work, 'body.json'))
      const other = r.compared === null ? '' : `, compared ${fmt(r.compared.perSecond)}/s (${r.compared.cpuUsPerDelivery === null ? '?' : fmt(r.compared.cpuUsPerDelivery)} µs CPU)`
      console.error(`${db} round ${i + 1}: helpdesk ${fmt(r.helpdesk.perSecond)}/s (${r.helpdesk.cpuUsPerDelivery === null ? '?' : fmt(r.helpdesk.cpuUsPerDelivery)} µs CPU/delivery)${other}, baseline ${fmt(r.baseline)}/s`)
      rounds.push(r)
    }
    results.push({ db, rounds })
  }
} finally {
  await sink.stop()
  rmSync(work, { recursive: true, force: true })
}

const compare = args.compare !== undefined
const lines = [
  `Webhook deliveries through \`helpdesk serve\`: ${EVENTS} events, one endpoint, receiver in its own process; ${ROUNDS} rounds; ${cpus().length} CPUs, load average at start ${load.map((l) => l.toFixed(1)).join(' ')}`,
  ...(compare ? [`Compared: ${args.compare}`] : []),
  '',
  `| database | deliveries/s | baseline client/s | ratio to baseline | serve CPU µs/delivery | serve RSS MiB |${compare ? ' compared deliveries/s | compared CPU µs/delivery | ratio to compared |' : ''}`,
  `|---|---:|---:|---:|---:|---:|${compare ? '---:|---:|---:|' : ''}`
]
for (const { db, rounds } of results) {
  const cpu = (served: Served[]): string => {
    const known = served.map((s) => s.cpuUsPerDelivery).filter((c): c is number => c !== null)
    return known.length > 0 ? spread(known, fmt) : '?'
  }
  const helpdesk = rounds.map((r) => r.helpdesk)
  const rss = helpdesk.map((s) => s.rssMiB).filter((c): c is number => c !== null)
  let line = `| ${db} | ${spread(helpdesk.map((s) => s.perSecond), fmt)} | ${spread(rounds.map((r) => r.baseline), fmt)} | ${spread(rounds.map((r) => r.helpdesk.perSecond / r.baseline), pct)} | ${cpu(helpdesk)} | ${rss.length > 0 ? fmt(median(rss)) : '?'} |`
  if (compare) {
    const compared = rounds.map((r) => r.compared!)
    line += ` ${spread(compared.map((s) => s.perSecond), fmt)} | ${cpu(compared)} | ${spread(rounds.map((r) => r.helpdesk.perSecond / r.compared!.perSecond), pct)} |`
  }
  lines.push(line)
}
console.log(lines.join('\n'))
mkdirSync(RESULTS_DIR, { recursive: true })
const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-')
writeFileSync(join(RESULTS_DIR, `${stamp}-webhooks.json`), JSON.stringify({ events: EVENTS, rounds: ROUNDS, cpus: cpus().length, loadavg: load, compare: args.compare ?? null, results }, null, 2))
writeFileSync(join(RESULTS_DIR, `${stamp}-webhooks.md`), `${lines.join('\n')}\n`)
