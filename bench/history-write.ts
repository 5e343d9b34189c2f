/**
 * The cost of ticket history on a write (issue 31), measured in one process
 * on the benchmark's cached databases: staff status changes through
 * `TicketService.update` as the help desk makes them (ticket, event log,
 * history row, one transaction), against the same calls on a store whose
 * history repository writes nothing: the same write without history. Rounds
 * alternate the two, one connection, so the ratio compares like with like.
 *
 *   node --import tsx bench/history-write.ts [--size 10k] [--db both] [--updates 500] [--rounds 5]
 *
 * Run `pnpm bench` first (it seeds the databases). Its writes are undone afterwards.
 */
import { parseArgs } from 'node:util'
import { createHelpdesk, type Store } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { ensureDatabase, parseSize, type Db } from './bench-data.js'
import { prepareLongTickets, undoTicketUpdates } from './long-tickets.js'

const { values: args } = parseArgs({
  options: { size: { type: 'string', default: '10k' }, db: { type: 'string', default: 'both' }, updates: { type: 'string', default: '500' }, rounds: { type: 'string', default: '5' } }
})
const updates = Number(args.updates)
const rounds = Number(args.rounds)
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Db]

/** `store` with a history repository that writes nothing, in its transactions too (an object over the store, its other members inherited). */
function withoutHistory (store: Store): Store {
  const none = { add: async () => {}, list: store.ticketHistory.list.bind(store.ticketHistory) }
  return Object.create(store, {
    ticketHistory: { value: none },
    transaction: { value: async (fn: (tx: Store) => Promise<unknown>) => await store.transaction(async (tx) => await fn(withoutHistory(tx))) }
  }) as Store
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const half = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2
}

for (const db of dbs) {
  const data = await ensureDatabase(db, args.size, { reseed: false })
  await prepareLongTickets(data)
  const tickets = parseSize(args.size)
  const store = createKnexStore({ url: data.url })
  try {
    const withHistory = createHelpdesk({ store })
    const without = createHelpdesk({ store: withoutHistory(store) })
    const agent = await store.users.findByEmail('admin@example.com') ?? await store.users.findByEmail('agent@example.com')
    if (agent === null) throw new Error('no administrator in the seeded database')
    // Every update changes the status (1 <-> 2, a closed ticket opens), so each one has a history row to write.
    const status = new Map((await store.knex('tickets').select('id', 'status') as Array<{ id: number, status: number }>).map((t) => [Number(t.id), Number(t.status)]))
    let n = 0
    const run = async (desk: typeof withHistory, count: number): Promise<number> => {
      const started = performance.now()
      for (let i = 0; i < count; i++) {
        n++
        const id = 1 + ((n * 7919) % tickets)
        const next = status.get(id) === 1 ? 2 : 1
        status.set(id, next)
        await desk.tickets.update(agent, id, { status: next })
      }
      return (performance.now() - started) / count
    }
    await run(withHistory, 100)
    await run(without, 100)
    const a: number[] = []
    const b: number[] = []
    for (let round = 0; round < rounds; round++) {
      const rows = async (): Promise<number> => Number((await store.knex('ticket_history').count({ n: '*' }).first() as { n: number | string }).n)
      const before = await rows()
      a.push(await run(withHistory, updates))
      const between = await rows()
      b.push(await run(without, updates))
      const after = await rows()
      if (between - before !== updates || after !== between) throw new Error(`the two variants did not write (and not write) history as meant: ${before} ${between} ${after}`)
    }
    const withMs = median(a)
    const withoutMs = median(b)
    process.stdout.write(`${db} ${args.size}: ticket update with history ${withMs.toFixed(3)} ms, without ${withoutMs.toFixed(3)} ms per update ` +
      `(medians of ${rounds} rounds of ${updates}); throughput with history = ${(100 * withoutMs / withMs).toFixed(0)}% of without\n`)
  } finally {
    await store.close()
  }
  await undoTicketUpdates(data)
}
