/**
 * The benchmark: seeds (or reuses) a database per size, starts `helpdesk
 * serve` and the raw-driver baseline on it in turn, drives both with
 * autocannon through the same scenarios, and prints req/s, p50, p99 and the
 * ratio to the baseline. Results go to bench/results/<time>.json and .md.
 *
 *   pnpm bench [--size 10k,1m] [--db sqlite|postgres|both] [--duration 10] [--connections 50]
 *              [--latency-duration 3] [--scenarios ticket-by-id,mixed] [--warmup 2] [--repeat 1] [--reseed] [--no-baseline]
 */
import { cpus, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import Database from 'better-sqlite3'
import { ensureDatabase, parseSize, runCli, warmDatabase, type BenchDatabase, type Db } from './bench-data.js'
import { runLoad, type LoadOptions } from './load.js'
import { markdownTable, writeReport, type BenchReport, type Measured, type RunResult, type ScenarioResult } from './report.js'
import { BENCH_COMMENT, SCENARIOS, type Scenario } from './scenarios.js'
import { startBaseline, startHelpdesk, type RunningServer } from './servers.js'
import { prepareLongTickets, undoTicketUpdates } from './long-tickets.js'

const { values: args } = parseArgs({
  // `pnpm bench -- --size 1m` may pass the `--` along.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    size: { type: 'string', default: '10k' },
    db: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    'latency-duration': { type: 'string', default: '3' },
    scenarios: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    reseed: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false }
  }
})

if (args.help === true) {
  console.log(`pnpm bench [-- options]
  --size 10k            ticket counts to seed (or reuse) and measure: 10k,1m for both
  --db both             sqlite, postgres or both
  --duration 10         seconds each loaded run lasts
  --connections 50      concurrent connections of a loaded run
  --latency-duration 3  seconds of the one-connection run (0: none)
  --warmup 2            seconds of warm-up before each run (0: none)
  --scenarios a,b       only these (${SCENARIOS.map((s) => s.name).join(', ')})
  --repeat 1            rounds, alternating the help desk and the baseline
  --reseed              seed again even where a cached database exists
  --no-baseline         measure the help desk alone`)
  process.exit(0)
}

const sizes = (args.size ?? '10k').split(',').map((s) => s.trim()).filter((s) => s !== '')
sizes.forEach(parseSize)
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : args.db === 'sqlite' || args.db === 'postgres' ? [args.db] : []
if (dbs.length === 0) throw new Error(`--db must be sqlite, postgres or both, got "${args.db ?? ''}"`)
const duration = Number(args.duration)
const connections = Number(args.connections)
const warmup = Number(args.warmup)
const latencyDuration = Number(args['latency-duration'])
const repeat = Number(args.repeat)
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat must be a whole number of rounds, 1 or more, got "${args.repeat ?? ''}"`)
const wanted = args.scenarios?.split(',').map((s) => s.trim())
const scenarios = SCENARIOS.filter((s) => wanted === undefined || wanted.includes(s.name))
if (scenarios.length === 0) throw new Error(`--scenarios: none of ${args.scenarios ?? ''} exists (${SCENARIOS.map((s) => s.name).join(', ')})`)

/**
 * Warms the server up (JIT, caches, connection pools), measures throughput
 * with every connection, then latency with one (a request's own time, no
 * queue in front of it).
 */
async function measure (server: RunningServer, scenario: Scenario, options: LoadOptions): Promise<Measured> {
  if (warmup > 0) await runLoad(server, scenario, { ...options, duration: warmup, seed: options.seed + 1000 })
  await server.drain()
  const load = await runLoad(server, scenario, options)
  await server.drain()
  const latency = latencyDuration > 0
    ? await runLoad(server, scenario, { ...options, connections: 1, duration: latencyDuration, seed: options.seed + 2000, sampleRss: false })
    : null
  await server.drain()
  return { ...load, latency: latency === null ? null : { p50Ms: latency.p50Ms, p99Ms: latency.p99Ms, requestsPerSecond: latency.requestsPerSecond } }
}

/** Removes the comments (and their notifications) the benchmark wrote, so cached databases stay as seeded. */
async function removeBenchWrites (data: BenchDatabase): Promise<void> {
  const statements = [
    ['delete from notifications where type = ? and data like ?', ['Tickets.CommentAdded', `%${BENCH_COMMENT}%`]],
    ['delete from comments where body = ?', [BENCH_COMMENT]]
  ] as const
  if (data.db === 'sqlite') {
    const db = new Database(data.url.slice('sqlite:'.length))
    for (const [sql, params] of statements) db.prepare(sql).run(...params)
    db.close()
    return
  }
  const client = new pg.Client({ connectionString: data.url })
  await client.connect()
  for (const [sql, params] of statements) {
    let n = 0
    await client.query(sql.replace(/\?/g, () => `$${++n}`), [...params])
  }
  await client.end()
}

/** The middle value; for an even count, the mean of the two middle ones (two rounds report their mean, not the better one). */
function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const half = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[half] as number : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2
}

/** The round whose throughput is nearest the median of all rounds (the slower of two equally near), so its latencies come from one run. */
function medianRound (rounds: Measured[]): Measured {
  const middle = median(rounds.map((r) => r.requestsPerSecond))
  const distance = (r: Measured): number => Math.abs(r.requestsPerSecond - middle)
  return rounds.reduce((best, r) => distance(r) < distance(best) || (distance(r) === distance(best) && r.requestsPerSecond < best.requestsPerSecond) ? r : best)
}

/**
 * Each scenario gets a fresh server: a scenario the baseline cannot keep up
 * with (its common-word search at a million tickets takes seconds a request)
 * leaves a backlog that would otherwise eat into the next one. Both servers
 * run on the same data, one after the other. Every scenario's fresh
 * `helpdesk serve` is a cold start too: the run reports their median (one
 * start alone, on a machine still busy reading the database in, said more
 * of the machine than of the start-up). With `--repeat N` they alternate N
 * times per scenario: the reported ratio is the median of the N rounds'
 * ratios (each round's two servers ran seconds apart, so a slow spell of a
 * shared machine hits both), and each server's figures are those of its
 * median round.
 */
async function benchOne (db: Db, size: string): Promise<RunResult> {
  const data = await ensureDatabase(db, size, { reseed: args.reseed ?? false })
  await prepareLongTickets(data)
  await warmDatabase(data)
  const token = (await runCli(['tokens:create', '--email', 'agent@example.com', '--database', data.url])).trim()
  const headers = { authorization: `Bearer ${token}` }
  const base = { duration, connections, tickets: data.tickets, headers }
  const probe = '/api/v1/tickets/1'
  const results: ScenarioResult[] = []
  const coldStartsMs: number[] = []
  let mixedPeakRssMiB: number | null = null
  for (const [i, scenario] of scenarios.entries()) {
    const helpdeskRounds: Measured[] = []
    const baselineRounds: Measured[] = []
    const ratios: number[] = []
    for (let round = 1; round <= repeat; round++) {
      const of = repeat > 1 ? ` (round ${round} of ${repeat})` : ''
      process.stderr.write(`  ${db} ${size} helpdesk: ${scenario.name}${of}...\n`)
      const helpdesk = await startHelpdesk(data.url, token, probe)
      coldStartsMs.push(helpdesk.coldStartMs)
      try {
        const result = await measure(helpdesk, scenario, { ...base, seed: i + 1, sampleRss: scenario.name === 'mixed' })
        if (result.peakRssMiB !== null) mixedPeakRssMiB = Math.max(mixedPeakRssMiB ?? 0, result.peakRssMiB)
        helpdeskRounds.push(result)
      } finally {
        await helpdesk.stop()
      }
      if (args['no-baseline'] === true) continue
      process.stderr.write(`  ${db} ${size} baseline: ${scenario.name}${of}...\n`)
      const baseline = await startBaseline(data.url, probe)
      try {
        const result = await measure(baseline, scenario, { ...base, seed: i + 1 })
        baselineRounds.push(result)
        const helpdeskResult = helpdeskRounds.at(-1) as Measured
        if (result.requestsPerSecond > 0) ratios.push(helpdeskResult.requestsPerSecond / result.requestsPerSecond)
      } finally {
        await baseline.stop()
      }
    }
    results.push({
      scenario: scenario.name,
      title: scenario.title,
      helpdesk: medianRound(helpdeskRounds),
      baseline: baselineRounds.length > 0 ? medianRound(baselineRounds) : null,
      ratio: ratios.length > 0 ? median(ratios) : null,
      ...(repeat > 1 && ratios.length > 0 ? { ratios } : {})
    })
  }
  await removeBenchWrites(data)
  await undoTicketUpdates(data)
  return { db, size, tickets: data.tickets, seedSeconds: data.seedSeconds, coldStartMs: coldStartsMs.length > 0 ? median(coldStartsMs) : 0, coldStartsMs, mixedPeakRssMiB, scenarios: results }
}

const report: BenchReport = {
  startedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform },
  settings: { duration, connections, latencyDuration, repeat },
  runs: []
}
for (const db of dbs) {
  for (const size of sizes) {
    const run = await benchOne(db, size)
    report.runs.push(run)
    process.stdout.write(markdownTable(run) + '\n\n')
  }
}
const written = writeReport(report)
process.stdout.write(`Results: ${written.json}\n         ${written.markdown}\n`)
