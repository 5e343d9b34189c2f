/**
 * Reports benchmark (issue 33): `pnpm bench:reports -- --size 10k --db both`.
 *
 * On the cached seeded databases of `pnpm bench` (bench-data.ts), for each
 * database and size:
 * 1. `reports:rebuild` (the rollups from scratch), timed;
 * 2. every report (ungrouped, grouped by category and by priority) over the whole seeded
 *    range through `helpdesk.reports`, beside its naive SQL baseline (the
 *    same figure computed at request time from tickets, comments and
 *    resolutions, percentiles sorted in JS), median of `--runs` runs;
 *    The percentiles also exactly (every duration sorted, as before the
 *    histograms) and in business time;
 * 3. ticket writes (a ticket and a staff reply each, through the services)
 *    without the rollup consumer and with it running in the same process
 *    (job runner started: `reports.update` a second after changes), in eight
 *    alternating rounds (medians; the job runner runs in both, only the
 *    consumer's work is switched), and the time the consumer then takes to
 *    catch up with a round's writes.
 * Prints a markdown table and writes results/reports-<time>.json and .md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createHelpdesk, REPORT_EXACT_PERCENTILES_UP_TO, REPORT_METRICS, REPORTS_UPDATE_JOB, SYSTEM, type Helpdesk, type ReportQuery, type User } from '../packages/core/dist/index.js'
import { createKnexStore, type KnexStore } from '../packages/store-knex/dist/index.js'
import { ensureDatabase, type Db } from './bench-data.js'
import { RESULTS_DIR } from './paths.js'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10k' },
    db: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '9' },
    writes: { type: 'string', default: '300' },
    reseed: { type: 'boolean', default: false },
    // Time the reports on rollups already built (a second run on the same database): no rebuild.
    'skip-rebuild': { type: 'boolean', default: false },
    // The range's last day (default: the newest update): a second run keeps the first run's range, which its writes moved.
    to: { type: 'string' }
  }
})
const sizes = (values.size ?? '10k').split(',')
const dbs: Db[] = values.db === 'both' ? ['sqlite', 'postgres'] : [values.db as Db]
const runs = Number(values.runs)
const writes = Number(values.writes)

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN }
async function timed (fn: () => Promise<unknown>): Promise<number> {
  await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return median(times)
}

/** Nearest-rank percentiles of a list, as the reports define them. */
function stats (values: number[]): { n: number, median: number | null, p90: number | null } {
  const s = values.sort((a, b) => a - b)
  const n = s.length
  return { n, median: s[Math.floor((n + 1) / 2) - 1] ?? null, p90: s[Math.floor((9 * n + 9) / 10) - 1] ?? null }
}

/** The figures computed at request time from the tickets themselves: what one would write without rollups. */
function baselines (store: KnexStore, from: string, to: string): Record<string, () => Promise<unknown>> {
  const db = store.knex
  const staffReplies = `select c.ticket_id, c.created_at from comments c join users u on u.id = c.user_id where c.type = 1 and c.private = ${store.dialect.name === 'postgres' ? 'false' : '0'} and u.role in (1, 2)`
  const resolved = `select t.id, t.category_id, t.created_at, coalesce((select max(r.closed_at) from ticket_resolutions r where r.ticket_id = t.id), t.updated_at) as resolved_at
    from tickets t where t.status = 3`
  const seconds = (a: unknown, b: unknown): number => (Date.parse(`${String(b).replace(' ', 'T')}Z`) - Date.parse(`${String(a).replace(' ', 'T')}Z`)) / 1000
  return {
    'first-response-time': async () => {
      const rows = await db.raw(`select t.created_at, min(s.created_at) as first from tickets t join (${staffReplies}) s on s.ticket_id = t.id
        where t.created_at >= ? and t.created_at < ? group by t.id, t.created_at`, [from, to])
      return stats((store.dialect.name === 'postgres' ? rows.rows : rows).map((r: Record<string, unknown>) => seconds(r.created_at, r.first)))
    },
    'resolution-time': async () => {
      const rows = await db.raw(`select created_at, resolved_at from (${resolved}) x where resolved_at >= ? and resolved_at < ?`, [from, to])
      return stats((store.dialect.name === 'postgres' ? rows.rows : rows).map((r: Record<string, unknown>) => seconds(r.created_at, r.resolved_at)))
    },
    replies: async () => await db.raw(`select count(distinct x.id) as resolved, count(s.ticket_id) as replies from (${resolved}) x
      left join (${staffReplies}) s on s.ticket_id = x.id and s.created_at <= x.resolved_at where x.resolved_at >= ? and x.resolved_at < ?`, [from, to]),
    'reopen-rate': async () => await db.raw(`select count(*) as resolved, sum(case when (select count(*) from ticket_resolutions r where r.ticket_id = x.id) > 1 then 1 else 0 end) as reopened
      from (${resolved}) x where x.resolved_at >= ? and x.resolved_at < ?`, [from, to]),
    volume: async () => [
      await db.raw('select substr(cast(created_at as text), 1, 10) as day, count(*) as n from tickets where created_at >= ? and created_at < ? group by 1', [from, to]),
      await db.raw(`select substr(cast(resolved_at as text), 1, 10) as day, count(*) as n from (${resolved}) x where resolved_at >= ? and resolved_at < ? group by 1`, [from, to])
    ],
    backlog: async () => await db.raw(`select case when created_at > ? then '0-1d' when created_at > ? then '1-3d' when created_at > ? then '3-7d' when created_at > ? then '7-30d' else '30d+' end as bucket, count(*)
      from tickets where status in (1, 2) group by 1`, ['2099-01-01', '2099-01-01', '2099-01-01', '2099-01-01']),
    'sla-attainment': async () => await db.raw('select targets from ticket_sla t join tickets k on k.id = t.ticket_id where k.created_at >= ? and k.created_at < ?', [from, to]),
    satisfaction: async () => await db.raw(`select sum(case when r.rating = 'good' then 1 else 0 end) as good, sum(case when r.rating = 'bad' then 1 else 0 end) as bad
      from (${resolved}) x join ticket_resolutions r on r.ticket_id = x.id and r.resolution = (select max(resolution) from ticket_resolutions q where q.ticket_id = x.id)
      where x.resolved_at >= ? and x.resolved_at < ?`, [from, to])
  }
}

/** `count` ticket writes (a ticket, then a staff reply on it) through the services; ms per write. */
async function ticketWrites (helpdesk: Helpdesk, customer: User, agent: User, category: number, count: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) {
    const ticket = await helpdesk.tickets.create(customer, { title: `Bench ${i}`, body: 'A benchmark ticket.', category })
    await helpdesk.comments.create(agent, ticket.id, { body: 'A benchmark reply.', type: 1, private: false })
  }
  return (performance.now() - start) / count
}

interface Result {
  db: Db
  size: string
  tickets: number
  rebuildSeconds: number
  /** The machine's load average (1, 5, 15 min) before the reports were timed: it is shared. */
  load: string
  reports: Array<{ report: string, grouped: string, ms: number, baselineMs: number | null }>
  writes: { withoutMs: number, withMs: number, overhead: number, consumerMsPerWrite: number, lagMs: number }
}

const results: Result[] = []
for (const db of dbs) {
  for (const size of sizes) {
    const data = await ensureDatabase(db, size, { reseed: values.reseed === true })
    const store = createKnexStore({ url: data.url })
    await store.migrate()
    const helpdesk = createHelpdesk({ store })
    try {
      const started = performance.now()
      if (values['skip-rebuild'] === true) await helpdesk.reports.update()
      else await helpdesk.reports.rebuild(SYSTEM)
      const rebuildSeconds = values['skip-rebuild'] === true ? Number.NaN : (performance.now() - started) / 1000
      const adminRow = await store.knex('users').where('role', 1).first('id') as { id: number }
      const agentRow = await store.knex('users').where('role', 2).first('id') as { id: number }
      const customerRow = await store.knex('users').where('role', 3).first('id') as { id: number }
      const admin = await store.users.findById(adminRow.id) as User
      const agent = await store.users.findById(agentRow.id) as User
      const customer = await store.users.findById(customerRow.id) as User
      const range = await store.knex('tickets').min({ from: 'created_at' }).max({ to: 'updated_at' }).first() as { from: string, to: string }
      // The seeded span, or its last 730 days (a report's limit) when longer.
      const to = values.to ?? String(range.to).slice(0, 10)
      const earliest = new Date(Date.parse(`${to}T00:00:00Z`) - 730 * 86_400_000).toISOString().slice(0, 10)
      const first = String(range.from).slice(0, 10)
      const query: ReportQuery = { from: [first, earliest].sort()[1] ?? first, to }
      const inRange = await store.knex('tickets').where('created_at', '>=', query.from).count({ n: '*' }).first() as { n: number | string }
      process.stdout.write(`range ${query.from}..${query.to}: ${String(inRange.n)} of ${data.tickets} tickets created in it\n`)
      const naive = baselines(store, `${query.from} 00:00:00`, `${query.to} 23:59:59`)
      const load = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')
      process.stdout.write(`load average before the reports: ${load}\n`)
      const reports: Result['reports'] = []
      for (const metric of REPORT_METRICS) {
        const baseline = naive[metric]
        reports.push({ report: metric, grouped: '-', ms: await timed(async () => await helpdesk.reports.report(admin, metric, query)), baselineMs: baseline === undefined ? null : await timed(baseline) })
        reports.push({ report: metric, grouped: 'category', ms: await timed(async () => await helpdesk.reports.report(admin, metric, { ...query, group_by: 'category' })), baselineMs: null })
        reports.push({ report: metric, grouped: 'priority', ms: await timed(async () => await helpdesk.reports.report(admin, metric, { ...query, group_by: 'priority' })), baselineMs: null })
      }
      // The percentiles as before the histograms (every duration read and sorted), and in business time.
      for (const metric of ['first-response-time', 'resolution-time'] as const) {
        helpdesk.reports.exactPercentilesUpTo = Number.POSITIVE_INFINITY
        reports.push({ report: `${metric} (exact, sorted)`, grouped: '-', ms: await timed(async () => await helpdesk.reports.report(admin, metric, query)), baselineMs: null })
        helpdesk.reports.exactPercentilesUpTo = REPORT_EXACT_PERCENTILES_UP_TO
        reports.push({ report: `${metric} (business time)`, grouped: '-', ms: await timed(async () => await helpdesk.reports.report(admin, metric, { ...query, time: 'business' })), baselineMs: null })
      }
      reports.push({ report: 'tickets (1,000 rows)', grouped: '-', ms: await timed(async () => await helpdesk.reports.tickets(admin, query, 0, 1000)), baselineMs: null })

      const category = (await store.knex('categories').first('id') as { id: number }).id
      await store.users.setCategories(agent.id, [...new Set([...(await store.users.categoryIds(agent.id)), category])])
      await ticketWrites(helpdesk, customer, agent, category, 20)
      // The runner runs throughout (its other jobs alike in both modes); only the consumer's work is switched on and off.
      // Rounds alternate (without, with, without, ...) so a neighbour's load or a warming cache favours neither; medians.
      let consumerOn = false
      helpdesk.jobs.register(REPORTS_UPDATE_JOB, async () => { if (consumerOn) await helpdesk.reports.update() }, { concurrency: 1 })
      helpdesk.jobs.start({ pollMs: 500 })
      const without: number[] = []
      const withConsumer: number[] = []
      const consumerPerWrite: number[] = []
      for (let round = 0; round < 8; round++) {
        consumerOn = false
        without.push(await ticketWrites(helpdesk, customer, agent, category, Math.ceil(writes / 8)))
        // The consumer's own work for this round's writes, alone: its cost per write.
        const catchUp = performance.now()
        await helpdesk.reports.update()
        consumerPerWrite.push((performance.now() - catchUp) / Math.ceil(writes / 8))
        consumerOn = true
        withConsumer.push(await ticketWrites(helpdesk, customer, agent, category, Math.ceil(writes / 8)))
      }
      const withoutMs = median(without)
      const withMs = median(withConsumer)
      await ticketWrites(helpdesk, customer, agent, category, Math.ceil(writes / 8))
      // How long until the rollups have every write: the consumer's lag.
      const lagStart = performance.now()
      await helpdesk.reports.update()
      const lagMs = performance.now() - lagStart
      await helpdesk.jobs.stop()
      const result: Result = { db, size, tickets: data.tickets, rebuildSeconds, load, reports, writes: { withoutMs, withMs, overhead: withMs / withoutMs - 1, consumerMsPerWrite: median(consumerPerWrite), lagMs } }
      results.push(result)
      process.stdout.write(`\n### ${db}, ${size} tickets\n\nreports:rebuild: ${rebuildSeconds.toFixed(1)} s; load average ${load}\n\n| report | grouped by | rollups (median ms) | naive SQL (median ms) |\n|---|---|---:|---:|\n`)
      for (const r of reports) process.stdout.write(`| ${r.report} | ${r.grouped} | ${r.ms.toFixed(1)} | ${r.baselineMs === null ? '' : r.baselineMs.toFixed(1)} |\n`)
      process.stdout.write(`\nticket write (ticket + reply): ${withoutMs.toFixed(2)} ms without the consumer, ${withMs.toFixed(2)} ms with it running (${(result.writes.overhead * 100).toFixed(1)}%); the consumer's own work: ${result.writes.consumerMsPerWrite.toFixed(2)} ms per write (${(result.writes.consumerMsPerWrite / withoutMs * 100).toFixed(1)}% of a write); catch-up after the last round: ${lagMs.toFixed(0)} ms\n`)
    } finally {
      await helpdesk.jobs.stop()
      await store.close()
    }
  }
}
mkdirSync(RESULTS_DIR, { recursive: true })
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
writeFileSync(join(RESULTS_DIR, `reports-${stamp}.json`), JSON.stringify(results, null, 2))
