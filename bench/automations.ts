/**
 * One run of the time-based automation job over many open tickets (issue 32),
 * in process on both databases, each on a fresh database of `--tickets` open
 * tickets created over the last 30 days:
 *
 * - idle: "close tickets pending for 7 days" with no ticket pending (the
 *   index range is empty);
 * - fired-on-all: "tag open tickets older than a day" after it fired on every
 *   one of them (its marks are there): every open ticket is in the time
 *   range, none is a candidate any more;
 * - conditions-fail: "tag urgent open tickets older than a day" (a priority
 *   no ticket has), never fired: every open ticket is in the time range, the
 *   conditions leave none;
 * - tags-fail: "tag open tickets older than a day tagged vip" (a tag no
 *   ticket has): `EXISTS` on the ticket's tags in the due query;
 * - subject-fail, field-fail, domain-fail: a subject condition
 *   (`contains_word`), a custom-field one (`contains`) and a customer email
 *   domain one (`is`) no ticket meets: narrowed in the due query (the subject
 *   and the answer case-folded with `LIKE`, the owner's address by `EXISTS`;
 *   before, every ticket in range was read, in pages, and judged in process);
 * - due: the same with `--due` tickets tagged vip, fired on (each its own
 *   write transaction) — the run's cost then follows what it does.
 *
 * Baseline, measured in the same run: the index read of the same time range
 * written out by hand (`select id ... where created_at <= ? order by
 * created_at limit 500`), i.e. what a run cannot be cheaper than; each
 * scenario is the median of `--runs` runs.
 *
 *   pnpm bench:automations [--tickets 100000] [--db sqlite|postgres|both] [--runs 5] [--due 100]
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { createHelpdesk, formatDateTime, Role, SYSTEM, TicketStatus, type Clock, type NewTicket } from '../packages/core/dist/index.js'
import { createKnexStore, createTestDatabase } from '../packages/store-knex/dist/index.js'

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    tickets: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '5' },
    due: { type: 'string', default: '100' }
  }
})
const TICKETS = Number(args.tickets)
const RUNS = Number(args.runs)
const DUE = Number(args.due)
const DAY = 24 * 60 * 60 * 1000

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function timed (fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

async function bench (dialect: 'sqlite' | 'postgres'): Promise<Array<Record<string, number | string>>> {
  const db = await createTestDatabase(dialect)
  const time = Date.parse('2026-03-02T08:00:00Z')
  const clock: Clock = { now: () => new Date(time) }
  const store = createKnexStore({ url: db.url, clock })
  try {
    await store.migrate()
    const helpdesk = createHelpdesk({ store, clock })
    const admin = await helpdesk.agents.create(SYSTEM, { first_name: 'A', last_name: 'Dmin', email: 'admin@example.com', password: 'secret123' }, Role.Admin, false)
    const customer = await helpdesk.customers.create(SYSTEM, { first_name: 'C', last_name: 'Ustomer', email: 'c@example.com', password: 'secret123' }, false)
    const category = await store.categories.create({ name: 'Billing', order: 1 } as never)
    const seedStart = performance.now()
    for (let i = 0; i < TICKETS; i += 2000) {
      const rows: NewTicket[] = []
      for (let j = i; j < Math.min(TICKETS, i + 2000); j++) {
        const at = formatDateTime(new Date(time - DAY - Math.floor((j / TICKETS) * 29 * DAY)))
        rows.push({ user_id: customer.id, creator_id: customer.id, category_id: category.id, status: TicketStatus.Open, private: true, title: `T${j}`, body: 'Body.', additional: { fields: { 1: `Order ${j}` } }, created_at: at, updated_at: at })
      }
      await store.tickets.createMany(rows)
    }
    if (dialect === 'postgres') await store.knex.raw('vacuum analyze')
    process.stderr.write(`${dialect}: ${TICKETS} open tickets in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`)

    const cutoff = formatDateTime(new Date(time - DAY))
    const baselineRead = async (): Promise<void> => {
      await store.knex.raw('select id from tickets where created_at <= ? order by created_at limit 500', [cutoff])
    }
    const measure = async (name: string, automationId: number | null, prepare?: () => Promise<void>): Promise<Record<string, number | string>> => {
      const times: number[] = []
      const baseline: number[] = []
      let fired = 0
      for (let i = 0; i < RUNS; i++) {
        baseline.push(await timed(baselineRead))
        if (prepare !== undefined) await prepare()
        times.push(await timed(async () => {
          const result = await helpdesk.automations.run()
          fired = result.fired.find((f) => f.automation_id === automationId)?.ticket_ids.length ?? 0
        }))
      }
      return { db: dialect, tickets: TICKETS, scenario: name, 'run ms (median)': Number(median(times).toFixed(1)), 'baseline ms (index read)': Number(median(baseline).toFixed(2)), fired }
    }
    const create = async (name: string, conditions: unknown, anchor = 'created', hours = 24) => await helpdesk.automations.create(admin, {
      name, time_condition: { anchor, hours }, conditions, actions: [{ type: 'add_tags', value: ['stale'] }]
    } as never)
    const only = async (id: number): Promise<void> => { await store.knex('automations').whereNot('id', id).update({ active: false }); await store.knex('automations').where('id', id).update({ active: true }) }
    const out: Array<Record<string, number | string>> = []

    const idle = await helpdesk.automations.create(admin, {
      name: 'close pending', time_condition: { anchor: 'status_changed', hours: 168 }, conditions: { all: [{ field: 'status', operator: 'is', value: TicketStatus.Pending }] }, actions: [{ type: 'set_status', value: TicketStatus.Closed }]
    } as never)
    await only(idle.id)
    out.push(await measure('idle (nothing pending)', idle.id))

    const all = await create('tag old open', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }] })
    await only(all.id)
    // As if it had fired on every ticket already: its marks, at each ticket's anchor.
    await store.knex.raw('insert into automation_marks (automation_id, ticket_id, anchor_at) select ?, id, created_at from tickets', [all.id])
    out.push(await measure('fired on all already', all.id))

    const urgent = await create('tag urgent', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }, { field: 'priority', operator: 'is', value: 'urgent' }] })
    await only(urgent.id)
    out.push(await measure('conditions fail (priority)', urgent.id))

    const vip = await create('tag vip', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }, { field: 'tags', operator: 'includes_any', value: ['vip'] }] })
    await only(vip.id)
    out.push(await measure('conditions fail (tags)', vip.id))

    const subject = await create('tag refunds', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }, { field: 'subject', operator: 'contains_word', value: 'refund' }] })
    await only(subject.id)
    out.push(await measure('conditions fail (subject)', subject.id))

    const field = await create('tag refund answers', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }, { field: 'field:1', operator: 'contains', value: 'refund' }] })
    await only(field.id)
    out.push(await measure('conditions fail (custom field)', field.id))

    const domain = await create('tag partner customers', { all: [{ field: 'status', operator: 'is', value: TicketStatus.Open }, { field: 'customer_email_domain', operator: 'is', value: 'partner.example.org' }] })
    await only(domain.id)
    out.push(await measure('conditions fail (email domain)', domain.id))
    await only(vip.id)

    const dueIds = (await store.knex('tickets').select('id').orderBy('id', 'desc').limit(DUE) as Array<{ id: number }>).map((row) => row.id)
    let round = 0
    out.push(await measure(`${DUE} due (tagged vip)`, vip.id, async () => {
      // Fresh candidates each run: new tags, the marks of the last run gone.
      round++
      await store.knex('automation_marks').where('automation_id', vip.id).delete()
      for (const id of dueIds) await store.tickets.setTags(id, ['vip', `r${round}`])
    }))
    return out
  } finally {
    await store.close()
    await db.drop()
  }
}

const dbs: Array<'sqlite' | 'postgres'> = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as 'sqlite' | 'postgres']
const results = []
for (const dialect of dbs) results.push(...await bench(dialect))
console.table(results)
