/**
 * The cost of triggers on ticket creation (issue 32), in one process on the
 * benchmark's cached databases: a customer creates tickets through
 * `TicketService.create` (ticket, events, the trigger hook, one
 * transaction) with no active trigger, with 50 active triggers none of which
 * match, and with 50 of which five match (each setting a priority or adding
 * a tag, so they write, record history and raise events). Rounds alternate
 * the three, one connection, so the ratios compare like with like.
 *
 *   node --import tsx bench/trigger-create.ts [--size 10k] [--db both] [--creates 300] [--rounds 5]
 *
 * Seeds the database when it is not cached yet (as `pnpm bench` does). The
 * tickets and triggers it makes are deleted afterwards.
 */
import { parseArgs } from 'node:util'
import { createHelpdesk, type Trigger } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { ensureDatabase, type Db } from './bench-data.js'

const { values: args } = parseArgs({
  options: { size: { type: 'string', default: '10k' }, db: { type: 'string', default: 'both' }, creates: { type: 'string', default: '300' }, rounds: { type: 'string', default: '5' } }
})
const creates = Number(args.creates)
const rounds = Number(args.rounds)
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Db]

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const half = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2
}

type Variant = 'none' | 'unmatched' | 'five'

for (const db of dbs) {
  const data = await ensureDatabase(db, args.size, { reseed: false })
  const store = createKnexStore({ url: data.url })
  await store.migrate()
  const made: number[] = []
  const triggers: Trigger[] = []
  try {
    const helpdesk = createHelpdesk({ store })
    const admin = await store.users.findByEmail('admin@example.com')
    const first = await store.tickets.findById(1)
    const customer = first === null ? null : await store.users.findById(first.user_id)
    if (admin === null || first === null || customer === null) throw new Error('the seeded database has no administrator or no ticket 1')
    const category = first.category_id
    // 45 that never match (a word no title has), and five that match every bench ticket's title.
    for (let i = 0; i < 50; i++) {
      const matching = i % 10 === 9
      triggers.push(await helpdesk.triggers.create(admin, {
        name: `bench ${i}`,
        active: false,
        events: ['ticket.created', 'ticket.updated'],
        conditions: {
          all: [
            { field: 'subject', operator: 'contains_word', value: matching ? 'benchmark' : `nomatch${i}` },
            { field: 'channel', operator: 'in', value: ['api', 'mail', 'console'] }
          ]
        },
        actions: i === 9 ? [{ type: 'set_priority', value: 'high' }] : [{ type: 'add_tags', value: [`bench-${i}`] }]
      }))
    }
    const unmatched = triggers.filter((_, i) => i % 10 !== 9).map((t) => t.id)
    const activate = async (variant: Variant): Promise<void> => {
      await store.knex('triggers').whereIn('id', triggers.map((t) => t.id)).update({ active: false })
      if (variant === 'none') return
      // "unmatched": 50 active triggers that never match (the five matching ones get a word no title has).
      await store.knex('triggers').whereIn('id', triggers.map((t) => t.id)).update({ active: true })
      if (variant === 'unmatched') {
        for (const t of triggers.filter((x) => !unmatched.includes(x.id))) {
          await store.knex('triggers').where('id', t.id).update({ conditions: JSON.stringify({ all: [{ field: 'subject', operator: 'contains_word', value: 'nevermatches' }], any: [] }) })
        }
      } else {
        for (const t of triggers.filter((x) => !unmatched.includes(x.id))) {
          await store.knex('triggers').where('id', t.id).update({ conditions: JSON.stringify(t.conditions) })
        }
      }
    }
    // This process's CPU time per creation (the help desk's own work; PostgreSQL's is in its own processes).
    const cpuMs: Record<Variant, number[]> = { none: [], unmatched: [], five: [] }
    const run = async (variant: Variant, count: number): Promise<number> => {
      await activate(variant)
      const started = performance.now()
      const cpu = process.cpuUsage()
      for (let i = 0; i < count; i++) {
        const ticket = await helpdesk.tickets.create(customer, { category, title: `A benchmark ticket ${i}`, body: 'Created by bench/trigger-create.ts.' })
        made.push(ticket.id)
      }
      const used = process.cpuUsage(cpu)
      cpuMs[variant].push((used.user + used.system) / 1000 / count)
      return (performance.now() - started) / count
    }
    for (const variant of ['none', 'unmatched', 'five'] as const) await run(variant, 50)
    for (const variant of ['none', 'unmatched', 'five'] as const) cpuMs[variant] = []
    // Statements per creation (through knex), which the load of a shared machine does not move.
    const statements: Record<Variant, number> = { none: 0, unmatched: 0, five: 0 }
    let counted = 0
    const count = (): void => { counted++ }
    for (const variant of ['none', 'unmatched', 'five'] as const) {
      await activate(variant)
      counted = 0
      store.knex.on('query', count)
      for (let i = 0; i < 20; i++) {
        made.push((await helpdesk.tickets.create(customer, { category, title: `A benchmark ticket ${i}`, body: 'Created by bench/trigger-create.ts.' })).id)
      }
      store.knex.off('query', count)
      statements[variant] = counted / 20
    }
    process.stdout.write(`${db} ${args.size}: statements per create: ${statements.none} with no trigger, ${statements.unmatched} with 50 none matching, ${statements.five} with five matching\n`)
    const times: Record<Variant, number[]> = { none: [], unmatched: [], five: [] }
    for (let round = 0; round < rounds; round++) {
      for (const variant of ['none', 'unmatched', 'five'] as const) times[variant].push(await run(variant, creates))
    }
    process.stdout.write(`${db} ${args.size}: this process's CPU per create ${median(cpuMs.none).toFixed(3)} ms with no trigger, ${median(cpuMs.unmatched).toFixed(3)} ms none matching, ` +
      `${median(cpuMs.five).toFixed(3)} ms five matching: ${(100 * median(cpuMs.none) / median(cpuMs.unmatched)).toFixed(0)}% and ${(100 * median(cpuMs.none) / median(cpuMs.five)).toFixed(0)}%\n`)
    const none = median(times.none)
    const unmatchedMs = median(times.unmatched)
    const five = median(times.five)
    process.stdout.write(`${db} ${args.size}: ticket create ${none.toFixed(3)} ms with no trigger, ${unmatchedMs.toFixed(3)} ms with 50 active none matching, ` +
      `${five.toFixed(3)} ms with 50 active five matching (medians of ${rounds} rounds of ${creates}); throughput = ` +
      `${(100 * none / unmatchedMs).toFixed(0)}% (none matching), ${(100 * none / five).toFixed(0)}% (five matching) of no trigger\n`)
  } finally {
    for (let i = 0; i < made.length; i += 500) await store.knex('tickets').whereIn('id', made.slice(i, i + 500)).delete()
    if (triggers.length > 0) await store.knex('triggers').whereIn('id', triggers.map((t) => t.id)).delete()
    await store.close()
  }
}
