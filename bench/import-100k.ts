/**
 * Import benchmark (a script, not a test): writes 100,000 tickets with their
 * comments in the documented JSON Lines format (docs/import-format.md), imports
 * them into a fresh SQLite database, and prints time and rates.
 *
 *   pnpm build && node --import tsx bench/import-100k.ts [--tickets N] [--comments N] [--keep] [--sla off|default|targets] [--url postgres://...]
 *
 * `--sla` (issue 31: imports give tickets their SLA state): `off` deletes every
 * policy first, so the import does no SLA work (as before); `default` (as
 * installed) keeps the default policy with no targets (a state row per ticket,
 * nothing due); `targets` gives the default policy targets on an office-hours
 * calendar, so the open tickets get due times. `--backfill` then drops every
 * SLA state and times a third run, which builds them again from the stored
 * conversations (tickets imported before imports kept SLA state). `--url` imports into that
 * (empty, e.g. freshly created) database instead of a fresh SQLite file.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createHelpdesk } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'

const { values: args } = parseArgs({
  options: {
    tickets: { type: 'string', default: '100000' },
    comments: { type: 'string', default: '3', short: 'c' },
    keep: { type: 'boolean', default: false },
    sla: { type: 'string', default: 'default' },
    backfill: { type: 'boolean', default: false },
    url: { type: 'string' }
  }
})
const TICKETS = Number(args.tickets)
const COMMENTS_PER_TICKET = Number(args.comments)
const CATEGORIES = 10
const AGENTS = 50
const CUSTOMERS = Math.max(1, Math.round(TICKETS / 5))

async function writeFile (path: string): Promise<number> {
  const out = createWriteStream(path)
  let records = 0
  const write = async (record: Record<string, unknown>): Promise<void> => {
    records++
    if (!out.write(JSON.stringify(record) + '\n')) await once(out, 'drain')
  }
  for (let i = 1; i <= CATEGORIES; i++) await write({ type: 'category', id: `cat-${i}`, name: `Category ${i}` })
  for (let i = 1; i <= AGENTS; i++) {
    await write({ type: 'agent', id: `ag-${i}`, first_name: 'Agent', last_name: String(i), email: `agent${i}@bench.example`, categories: [`cat-${1 + (i % CATEGORIES)}`] })
  }
  for (let i = 1; i <= CUSTOMERS; i++) {
    await write({ type: 'customer', id: `cu-${i}`, first_name: 'Customer', last_name: String(i), email: `customer${i}@bench.example` })
  }
  const start = Date.UTC(2020, 0, 1) / 1000
  for (let i = 1; i <= TICKETS; i++) {
    const customer = `cu-${1 + (i % CUSTOMERS)}`
    const agent = `ag-${1 + (i % AGENTS)}`
    const created = start + i * 600
    const at = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
    const comments = []
    for (let c = 0; c < COMMENTS_PER_TICKET; c++) {
      const byAgent = c % 2 === 0
      comments.push({
        id: `c-${i}-${c}`,
        ...(byAgent ? { agent } : { customer }),
        body: `<p>${byAgent ? 'Thanks for reaching out' : 'Thank you'}, message ${c + 1} on ticket ${i}.</p>`,
        created_at: at(created + (c + 1) * 60)
      })
    }
    await write({
      type: 'ticket',
      id: `t-${i}`,
      customer,
      category: `cat-${1 + (i % CATEGORIES)}`,
      agent: i % 3 === 0 ? agent : undefined,
      title: `Ticket ${i}: the widget does not turn on`,
      body: `<p>Hello, my widget number ${i} stopped working after the update. What can I do?</p>`,
      status: ['open', 'pending', 'closed'][i % 3],
      created_at: at(created),
      comments
    })
  }
  out.end()
  await once(out, 'finish')
  return records
}

const dir = mkdtempSync(join(tmpdir(), 'helpdesk-bench-'))
const file = join(dir, 'bench.jsonl')
console.log(`Writing ${TICKETS} tickets with ${COMMENTS_PER_TICKET} comments each to ${file} ...`)
const records = await writeFile(file)
console.log(`  ${records} records, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`)

const store = createKnexStore({ url: args.url ?? `sqlite:${join(dir, 'bench.sqlite')}` })
await store.migrate()
if (args.sla === 'off') await store.knex('sla_policies').delete()
else if (args.sla === 'targets') {
  const day = { start: '09:00', end: '17:00' }
  const office = await store.sla.createCalendar({
    name: 'Office',
    time_zone: 'Europe/Berlin',
    hours: { mon: [day], tue: [day], wed: [day], thu: [day], fri: [day], sat: [], sun: [] },
    holidays: [],
    twenty_four_seven: false
  })
  await store.sla.updatePolicy(1, { calendar_id: office.id, first_response_minutes: 240, next_response_minutes: 480, resolution_minutes: 2400 })
} else if (args.sla !== 'default') throw new Error('--sla is off, default or targets')
const helpdesk = createHelpdesk({ store })
console.log(`SLA: ${args.sla}, database: ${args.url === undefined ? 'SQLite' : 'the given URL'}`)
const startedAt = performance.now()
const cpuAt = process.cpuUsage()
let lastPrint = 0
const job = await helpdesk.imports.importFile(file, {
  onProgress: (done, total) => {
    const now = performance.now()
    if (now - lastPrint < 2000 && done !== total) return
    lastPrint = now
    const seconds = (now - startedAt) / 1000
    console.log(`  ${done}/${total ?? '?'} records, ${seconds.toFixed(1)} s`)
  }
})
const seconds = (performance.now() - startedAt) / 1000
const cpu = process.cpuUsage(cpuAt)
if (job.status !== 'completed') {
  console.error(`Import failed: ${job.message ?? ''}`)
  process.exitCode = 1
} else {
  const rows = job.created
  console.log(`Imported ${job.processed} records (${rows} rows: ${TICKETS} tickets, ${TICKETS * COMMENTS_PER_TICKET} comments) in ${seconds.toFixed(1)} s`)
  console.log(`  ${(job.processed / seconds).toFixed(0)} records/s, ${(TICKETS / seconds).toFixed(0)} tickets/s, ${(rows / seconds).toFixed(0)} rows/s`)
  // CPU of this process (SQLite's work included; PostgreSQL's not): what the machine's other load moves least.
  console.log(`  CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)}, system ${(cpu.system / 1e6).toFixed(1)}), load average ${loadavg()[0]!.toFixed(1)}`)
  const again = performance.now()
  const cpuAgain = process.cpuUsage()
  const rerun = await helpdesk.imports.importFile(file)
  const rerunCpu = process.cpuUsage(cpuAgain)
  console.log(`Re-run (nothing new): ${rerun.created} rows created in ${((performance.now() - again) / 1000).toFixed(1)} s, CPU ${((rerunCpu.user + rerunCpu.system) / 1e6).toFixed(1)} s`)
  if (args.backfill) {
    await store.knex('ticket_sla').delete()
    await store.knex('tickets').update({ first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, sla_next_due_at: null })
    const from = performance.now()
    const cpuFrom = process.cpuUsage()
    const backfill = await helpdesk.imports.importFile(file)
    const used = process.cpuUsage(cpuFrom)
    console.log(`Re-run with no SLA states (back-fill): ${backfill.created} rows created in ${((performance.now() - from) / 1000).toFixed(1)} s, CPU ${((used.user + used.system) / 1e6).toFixed(1)} s`)
  }
  const count = async (query: ReturnType<typeof store.knex>): Promise<number> => Number((await query.count({ n: '*' }).first() as { n: number | string }).n)
  console.log(`  SLA states ${await count(store.knex('ticket_sla'))}, tickets with a due time ${await count(store.knex('tickets').whereNotNull('resolution_due_at'))}, ` +
    `in the escalation scan ${await count(store.knex('tickets').whereNotNull('sla_next_due_at'))}`)
}
await store.close()
if (args.keep) console.log(`Kept ${dir}`)
else rmSync(dir, { recursive: true, force: true })
