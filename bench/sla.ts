/**
 * SLA costs (issue 31), in process on both databases:
 * - a ticket write (a reply through the comment service, with its events,
 *   notifications and status change) with the SLA recalculation against the
 *   same write with no policy to evaluate (today's cost);
 * - one run of the escalation scan over N tickets with due times, when
 *   nothing is due (the index read alone), and when K come due at once.
 *
 * - listing a ticket's history (a page of 100 changes) beside listing its
 *   comments (a page of 100), the same ticket after 200 replies.
 *
 *   pnpm bench:sla [--tickets 10000] [--open N] [--writes 600] [--db sqlite|postgres|both]
 *
 * `--open` keeps only the newest N tickets open (the rest closed): the issue's
 * figure is `--tickets 1000000 --open 100000`.
 *
 * DROP_DUE_INDEXES=1 drops the indexes of the three per-target due columns
 * (keeping `sla_next_due_at`'s) to measure what they cost a write.
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import {
  commentList, CommentType, createArgon2Hasher, parseListQuery, ticketHistoryList, createHelpdesk, formatDateTime, personActor, Role, SYSTEM, TicketStatus, type Clock, type NewTicket, type SlaConfig
} from '../packages/core/dist/index.js'
import { createKnexStore, createTestDatabase } from '../packages/store-knex/dist/index.js'

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    tickets: { type: 'string', default: '10000' },
    writes: { type: 'string', default: '600' },
    open: { type: 'string' },
    db: { type: 'string', default: 'both' }
  }
})
const TICKETS = Number(args.tickets)
const WRITES = Number(args.writes)
const OPEN = args.open === undefined ? TICKETS : Math.min(TICKETS, Number(args.open))
const DAY = 24 * 60 * 60 * 1000

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function bench (dialect: 'sqlite' | 'postgres'): Promise<Record<string, number | string>> {
  const db = await createTestDatabase(dialect)
  let time = Date.parse('2026-03-02T08:00:00Z')
  const clock: Clock = { now: () => new Date(time) }
  const store = createKnexStore({ url: db.url, clock })
  try {
    await store.migrate()
    if (process.env.DROP_DUE_INDEXES === '1') for (const c of ['first_response', 'next_response', 'resolution']) await store.knex.raw(`drop index tickets_${c}_due_at_index`)
    const helpdesk = createHelpdesk({ store, clock, hasher: createArgon2Hasher({ memoryCost: 1024, timeCost: 1 }) })
    const agent = await helpdesk.agents.create(SYSTEM, { first_name: 'A', last_name: 'Gent', email: 'agent@example.com', password: 'secret123' }, Role.Admin, false)
    const customer = await helpdesk.customers.create(SYSTEM, { first_name: 'C', last_name: 'Ustomer', email: 'c@example.com', password: 'secret123' }, false)
    const category = await store.categories.create({ name: 'Billing', order: 1 } as never)

    // Tickets created over the last 30 days, open.
    const rows: NewTicket[] = []
    for (let i = 0; i < TICKETS; i++) {
      const at = formatDateTime(new Date(time - Math.floor((i / TICKETS) * 30 * DAY)))
      rows.push({ user_id: customer.id, creator_id: customer.id, category_id: category.id, status: i < OPEN ? TicketStatus.Open : TicketStatus.Closed, private: true, title: `T${i}`, body: 'Body.', additional: {}, created_at: at, updated_at: at })
    }
    for (let i = 0; i < rows.length; i += 2000) await store.tickets.createMany(rows.slice(i, i + 2000))
    await store.optimize()
    const ids = (await store.sla.openTicketIds(0, TICKETS, [TicketStatus.Closed]))

    const office = await store.sla.createCalendar({
      name: 'Office', time_zone: 'Europe/Berlin', holidays: [], twenty_four_seven: false,
      hours: { mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }], tue: [{ start: '09:00', end: '17:00' }], wed: [{ start: '09:00', end: '17:00' }], thu: [{ start: '09:00', end: '17:00' }], fri: [{ start: '09:00', end: '15:00' }], sat: [], sun: [] }
    })
    // Resolution in 31 days around the clock: due times spread over the coming day and month.
    await store.sla.createPolicy({
      name: 'Standard', conditions: { category_ids: [category.id] }, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 30 * 24 * 60,
      calendar_id: 1, warning_minutes: 60, warnings_follow_calendar: true
    })
    await store.sla.createPolicy({
      name: 'Office', conditions: { category_ids: [999999] }, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480,
      calendar_id: office.id, warning_minutes: 30, warnings_follow_calendar: true
    })
    const staff = personActor(agent)
    const owner = personActor(customer)
    const write = async (ticketId: number, i: number): Promise<void> => {
      time += 1000
      await helpdesk.comments.create(i % 2 === 0 ? owner : staff, ticketId, { body: `Reply ${i}`, type: CommentType.Reply })
    }
    let next = 0
    const writes = async (count: number): Promise<number> => {
      const started = performance.now()
      for (let i = 0; i < count; i++) await write(ids[next++ % ids.length]!, i)
      return count / ((performance.now() - started) / 1000)
    }

    // Today's cost: no policy to evaluate (the recorder returns at once). Rounds alternate both ways, so a
    // busy machine slows both alike; the medians of the rounds are compared.
    const real = helpdesk.sla.cache.load.bind(helpdesk.sla.cache)
    const none: SlaConfig = { policies: [], calendars: new Map(), paused_statuses: [TicketStatus.Pending], needs_email: false }
    const off = async (): Promise<SlaConfig> => none
    helpdesk.sla.cache.load = off
    await writes(50) // warm-up
    helpdesk.sla.cache.load = real
    await writes(50)
    const rounds = 20
    const per = Math.max(10, Math.floor(WRITES / rounds))
    const withoutRates: number[] = []
    const withRates: number[] = []
    for (let round = 0; round < rounds; round++) {
      for (const on of round % 2 === 0 ? [false, true] : [true, false]) {
        helpdesk.sla.cache.load = on ? real : off
        ;(on ? withRates : withoutRates).push(await writes(per))
      }
    }
    helpdesk.sla.cache.load = real
    const without = median(withoutRates)
    const withSla = median(withRates)
    // Each round's two halves ran back to back: their ratio is the least disturbed by the machine's load.
    const pairedRatio = median(withRates.map((rate, i) => rate / withoutRates[i]!))

    // For the scan: resolution targets only, due over the coming month (no backlog of breached first responses).
    const standard = (await store.sla.allPolicies()).find((p) => p.name === 'Standard')!
    await store.sla.updatePolicy(standard.id, { first_response_minutes: null, next_response_minutes: null, warning_minutes: null })
    // Every open ticket evaluated (as the recalculation job does).
    const recalcStart = performance.now()
    let after: number | null = 0
    while (after !== null) after = await helpdesk.sla.recalculateBatch(after, 500)
    const recalcPerTicket = (performance.now() - recalcStart) / ids.length

    // The scan when nothing is due: one index read.
    await helpdesk.sla.escalate()
    const idle: number[] = []
    for (let i = 0; i < 30; i++) {
      const started = performance.now()
      await helpdesk.sla.escalate()
      idle.push(performance.now() - started)
    }
    // Later: the oldest open tickets (about 1/30 of the open ones) come due at once, warned then breached. All open:
    // a day later; with only the newest open, when the oldest of them reach their 30 days.
    const openSpan = 30 * DAY * OPEN / TICKETS
    time += 30 * DAY - openSpan + openSpan / 30
    // One run takes at most a batch of the due tickets; the next runs drain the rest (each due ticket: a
    // transaction with its events, notifications and SLA triggers). Then the scan is idle again.
    const dueStart = performance.now()
    const emitted = await helpdesk.sla.escalate()
    const dueRun = performance.now() - dueStart
    let drained = emitted
    const drainStart = performance.now()
    for (let more = emitted; more > 0;) {
      more = await helpdesk.sla.escalate()
      drained += more
    }
    const perEvent = (dueRun + performance.now() - drainStart) / Math.max(1, drained)
    const after1: number[] = []
    for (let i = 0; i < 10; i++) {
      const started = performance.now()
      await helpdesk.sla.escalate()
      after1.push(performance.now() - started)
    }
    // History beside comments: one ticket with 200 replies (each staff reply moves its status: a change in its history).
    const busy = ids[0]!
    for (let i = 0; i < 200; i++) await write(busy, i)
    const historyQuery = parseListQuery(ticketHistoryList, { per_page: 100 })
    const commentQuery = parseListQuery(commentList, { per_page: 100 })
    const timed = async (run: () => Promise<unknown>): Promise<number> => {
      const samples: number[] = []
      for (let i = 0; i < 30; i++) {
        const started = performance.now()
        await run()
        samples.push(performance.now() - started)
      }
      return median(samples)
    }
    const historyMs = await timed(async () => await helpdesk.ticketHistory.list(staff, busy, historyQuery))
    const commentsMs = await timed(async () => await helpdesk.comments.list(staff, busy, commentQuery))
    const historyTotal = (await helpdesk.ticketHistory.list(staff, busy, historyQuery)).total
    return {
      db: dialect,
      tickets: TICKETS,
      open: OPEN,
      'writes/s without SLA': Math.round(without),
      'writes/s with SLA': Math.round(withSla),
      'ratio (paired rounds, median)': Number(pairedRatio.toFixed(3)),
      'recalculation ms/ticket': Number(recalcPerTicket.toFixed(2)),
      'scan ms (nothing due, median of 30)': Number(median(idle).toFixed(2)),
      'first run ms (K events)': `${dueRun.toFixed(1)} (${emitted})`,
      'events until drained, ms per event': `${drained}, ${perEvent.toFixed(2)}`,
      'scan ms after draining (median of 10)': Number(median(after1).toFixed(2)),
      'history page of 100 ms (of N changes)': `${historyMs.toFixed(2)} (${historyTotal})`,
      'comments page of 100 ms': Number(commentsMs.toFixed(2))
    }
  } finally {
    await store.close()
    await db.drop()
  }
}

const dbs: Array<'sqlite' | 'postgres'> = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as 'sqlite' | 'postgres']
const results = []
for (const dialect of dbs) results.push(await bench(dialect))
console.table(results)
