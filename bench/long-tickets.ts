/**
 * Fixtures of the scenarios that read one long ticket (issue 31): a ticket
 * with 200 comments and one with 200 history entries, written once into the
 * cached database (topped up when fewer), and a snapshot of every ticket's
 * status so the ticket-update scenario's writes can be undone afterwards.
 */
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import type { BenchDatabase } from './bench-data.js'

/** The seeded ticket that gets 200 comments, and the one that gets 200 changes. */
export const LONG_COMMENTS_TICKET = 1
export const LONG_HISTORY_TICKET = 2
export const LONG_LENGTH = 200

export async function prepareLongTickets (data: BenchDatabase): Promise<void> {
  const store = createKnexStore({ url: data.url })
  try {
    await store.migrate()
    const db = store.knex
    const count = async (table: string, ticketId: number): Promise<number> =>
      Number((await db(table).where('ticket_id', ticketId).count({ n: '*' }).first() as { n: number | string }).n)
    const owner = await store.tickets.findById(LONG_COMMENTS_TICKET)
    const agent = await store.users.findByEmail('agent@example.com')
    if (owner === null || agent === null) throw new Error('the seeded database has no ticket 1 or no agent@example.com')
    const comments = LONG_LENGTH - await count('comments', LONG_COMMENTS_TICKET)
    if (comments > 0) {
      await store.comments.createMany(Array.from({ length: comments }, (_, i) => ({
        ticket_id: LONG_COMMENTS_TICKET,
        user_id: i % 2 === 0 ? owner.user_id : agent.id,
        body: `<p>Long thread, message ${i + 1}.</p>`,
        preview: `Long thread, message ${i + 1}.`,
        type: 1 as const,
        private: false
      })))
    }
    const changes = LONG_LENGTH - await count('ticket_history', LONG_HISTORY_TICKET)
    if (changes > 0) {
      await store.ticketHistory.add(Array.from({ length: changes }, (_, i) => ({
        ticket_id: LONG_HISTORY_TICKET,
        actor_kind: 'person' as const,
        actor_id: agent.id,
        actor_name: null,
        field: i % 4 === 3 ? 'category' : 'status',
        old_value: i % 4 === 3 ? 1 : (i % 2) + 1,
        new_value: i % 4 === 3 ? 2 : 2 - (i % 2),
        public: i % 4 !== 3,
        door: 'system' as const
      })))
    }
    if (!await db.schema.hasTable('bench_status_snapshot')) {
      await db.raw('create table bench_status_snapshot as select id, status from tickets')
    }
  } finally {
    await store.close()
  }
}

/** Puts back the statuses the ticket-update scenario changed, and removes the history it wrote (the long ticket's stays). */
export async function undoTicketUpdates (data: BenchDatabase): Promise<void> {
  const store = createKnexStore({ url: data.url })
  try {
    const db = store.knex
    await db.raw('update tickets set status = (select s.status from bench_status_snapshot s where s.id = tickets.id) ' +
      'where exists (select 1 from bench_status_snapshot s where s.id = tickets.id and s.status <> tickets.status)')
    await db('ticket_history').whereNot('ticket_id', LONG_HISTORY_TICKET).where('door', 'api').delete()
  } finally {
    await store.close()
  }
}
