import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parseListQuery, ticketList } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { deskOn, ticket, type Desk } from './use-case-fixtures.js'

/** The stored reads, as `ticket:user` pairs, sorted. */
async function reads (d: Desk): Promise<string[]> {
  const rows = await d.store.knex('ticket_reads').select('ticket_id', 'user_id') as Array<{ ticket_id: number, user_id: number }>
  return pairs(rows.map((row) => [row.ticket_id, row.user_id]))
}

const pairs = (list: ReadonlyArray<readonly [number, number]>): string[] => list.map(([ticketId, userId]) => `${ticketId}:${userId}`).sort()

const view = parseListQuery(ticketList, {})

/**
 * Ticket reads (`last_read_by_me`) go with their ticket and their user. On
 * PostgreSQL `ticket_reads` has no foreign keys (migration 0018): triggers
 * cascade the deletes, locking the table against reads being written.
 */
for (const dialect of testDialects()) {
  describe(`ticket reads on ${dialect}`, () => {
    it('are removed with their ticket, with their user, and with the tickets a deleted customer owned', async (t) => {
      const d = await deskOn(t, dialect)
      const alices = await ticket(d, d.alice, { category: d.billing })
      const bobs = await ticket(d, d.bob, { category: d.billing })
      const other = await ticket(d, d.alice, { category: d.billing })
      for (const [actor, id] of [[d.agent, alices.id], [d.agent, bobs.id], [d.agent, other.id], [d.admin, bobs.id], [d.admin, other.id], [d.alice, alices.id]] as const) {
        await d.helpdesk.tickets.view(actor, id, view)
      }
      assert.equal((await reads(d)).length, 6)

      assert.ok(await d.store.tickets.delete(other.id))
      assert.deepEqual(await reads(d), pairs([[alices.id, d.agent.id], [alices.id, d.alice.id], [bobs.id, d.agent.id], [bobs.id, d.admin.id]]))

      assert.ok(await d.store.users.delete(d.agent.id))
      assert.deepEqual(await reads(d), pairs([[alices.id, d.alice.id], [bobs.id, d.admin.id]]))

      // Bob's tickets go with Bob, and their reads with them.
      assert.ok(await d.store.users.delete(d.bob.id))
      assert.deepEqual(await reads(d), pairs([[alices.id, d.alice.id]]))
    })

    it('a read recorded while its ticket is being deleted leaves no row behind', { skip: dialect !== 'postgres' && 'SQLite writes one transaction at a time' }, async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      let recorded = false
      await d.store.knex.transaction(async (trx) => {
        await trx('tickets').where('id', id).delete()
        // The ticket is still there for everyone else until this commits: the read waits for the deleting transaction.
        void d.store.tickets.markRead(id, d.agent.id, '2026-01-02 03:04:05').then(() => { recorded = true })
        await new Promise((resolve) => setTimeout(resolve, 200))
        assert.equal(recorded, false, 'the read waited for the delete')
      })
      await d.store.tickets.markRead(id, d.agent.id, '2026-01-02 03:04:06')
      assert.equal(recorded, true)
      assert.deepEqual(await reads(d), [])
    })

    it('a read still being written when its ticket is deleted goes with the ticket', { skip: dialect !== 'postgres' && 'SQLite writes one transaction at a time' }, async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      let deleted = false
      let deleting: Promise<boolean> | undefined
      await d.store.knex.transaction(async (trx) => {
        await trx('ticket_reads').insert({ ticket_id: id, user_id: d.agent.id, read_at: '2026-01-02 03:04:05' })
        deleting = d.store.tickets.delete(id).then((done) => { deleted = true; return done })
        await new Promise((resolve) => setTimeout(resolve, 200))
        assert.equal(deleted, false, 'the delete waited for the read to commit')
      })
      assert.equal(await deleting, true)
      assert.deepEqual(await reads(d), [])
    })
  })
}
