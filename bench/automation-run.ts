/**
 * The cost of one time-based automation run (issue 32) on the benchmark's
 * cached databases: "close tickets pending for 7 days" over every ticket,
 * with `--due` of them pending for longer (made so for the run, put back
 * afterwards). The first run fires on the due ones; the second finds them
 * marked (their status moved too) and reads only the index range.
 *
 *   node --import tsx bench/automation-run.ts [--size 10k] [--db both] [--due 500]
 */
import { parseArgs } from 'node:util'
import { createHelpdesk } from '../packages/core/dist/index.js'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { ensureDatabase, parseSize, type Db } from './bench-data.js'

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '10k' }, db: { type: 'string', default: 'both' }, due: { type: 'string', default: '500' } } })
const due = Number(args.due)
const dbs: Db[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Db]

for (const db of dbs) {
  const data = await ensureDatabase(db, args.size, { reseed: false })
  const store = createKnexStore({ url: data.url })
  await store.migrate()
  const snapshot = await store.knex('tickets').select('id', 'status', 'status_changed_at').whereBetween('id', [1, due]) as Array<{ id: number, status: number, status_changed_at: string | null }>
  const pendingElsewhere = (await store.knex('tickets').select('id').where('status', 2).whereNotBetween('id', [1, due]) as Array<{ id: number }>).map((row) => row.id)
  let automationId: number | null = null
  try {
    const helpdesk = createHelpdesk({ store })
    const admin = await store.users.findByEmail('admin@example.com')
    if (admin === null) throw new Error('no administrator in the seeded database')
    // Everything else is not pending: the due tickets are pending since 30 days.
    await store.knex('tickets').where('status', 2).whereNotBetween('id', [1, due]).update({ status: 1 })
    await store.knex('tickets').whereBetween('id', [1, due]).update({ status: 2, status_changed_at: '2000-01-01 00:00:00' })
    const automation = await helpdesk.automations.create(admin, {
      name: 'bench close pending', time_condition: { anchor: 'status_changed', hours: 168 }, conditions: { all: [{ field: 'status', operator: 'is', value: 2 }] }, actions: [{ type: 'set_status', value: 3 }]
    })
    automationId = automation.id
    let started = performance.now()
    const first = await helpdesk.automations.run()
    const firstMs = performance.now() - started
    started = performance.now()
    const second = await helpdesk.automations.run()
    const secondMs = performance.now() - started
    const fired = (run: typeof first) => run.fired.find((f) => f.automation_id === automation.id)?.ticket_ids.length ?? 0
    process.stdout.write(`${db} ${args.size} (${parseSize(args.size)} tickets): first run ${firstMs.toFixed(0)} ms (fired on ${fired(first)}), ` +
      `second run ${secondMs.toFixed(1)} ms (fired on ${fired(second)})\n`)
  } finally {
    for (const row of snapshot) await store.knex('tickets').where('id', row.id).update({ status: row.status, status_changed_at: row.status_changed_at })
    for (let i = 0; i < pendingElsewhere.length; i += 500) await store.knex('tickets').whereIn('id', pendingElsewhere.slice(i, i + 500)).update({ status: 2 })
    await store.knex('ticket_history').where('actor_name', 'automation:bench close pending').delete()
    if (automationId !== null) await store.knex('automations').where('id', automationId).delete()
    await store.close()
  }
}
