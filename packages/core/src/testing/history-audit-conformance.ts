import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { ListQuery } from '../list/list-query.js'
import { aTicket, type WithStore } from './conformance-support.js'

const list = (fields: Partial<ListQuery> = {}): ListQuery => ({ include: [], sort: [{ field: 'id', desc: false }], partial: {}, exact: {}, page: 1, perPage: 100, ...fields })

/** The contracts of `TicketHistoryRepository` and `AuditLogRepository` (issue 31). */
export function historyAuditConformance (withStore: WithStore): void {
  describe('ticket history and the audit log', () => {
    it('appends history entries with JSON values (one or many at once), lists a ticket\'s in order, public ones alone on demand, and drops them with the ticket', async () => {
      await withStore(async ({ store, clock }) => {
        const { ticketId, ownerId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        const who = { actor_kind: 'person' as const, actor_id: ownerId, actor_name: null, door: 'api' as const }
        await store.ticketHistory.add([
          { ticket_id: ticketId, ...who, field: 'status', old_value: 1, new_value: 3, public: true },
          { ticket_id: ticketId, ...who, field: 'fields.4', old_value: null, new_value: 'Röd "red"', public: false }
        ])
        await store.ticketHistory.add(Array.from({ length: 600 }, (_, i) => ({ ticket_id: other.ticketId, ...who, field: 'title', old_value: `t${i}`, new_value: { n: i }, public: false })))
        const all = await store.ticketHistory.list(ticketId, false, list())
        assert.deepEqual(all.items.map((e) => [e.field, e.old_value, e.new_value, e.public, e.door, e.actor_kind, e.actor_id, e.created_at]), [
          ['status', 1, 3, true, 'api', 'person', ownerId, clock.at()],
          ['fields.4', null, 'Röd "red"', false, 'api', 'person', ownerId, clock.at()]
        ])
        assert.deepEqual((await store.ticketHistory.list(ticketId, true, list())).items.map((e) => e.field), ['status'])
        const page = await store.ticketHistory.list(other.ticketId, false, list({ perPage: 10, page: 60 }))
        assert.deepEqual([page.total, page.items.length, page.items.at(-1)?.new_value], [600, 10, { n: 599 }])
        assert.ok(await store.tickets.delete(ticketId))
        assert.equal((await store.ticketHistory.list(ticketId, false, list())).total, 0)
      })
    })

    it('appends audit entries, filters them by action, actor, subject and time, and deletes the old ones in batches', async () => {
      await withStore(async ({ store, clock }) => {
        const { ownerId } = await aTicket(store)
        const entry = (action: string, subjectId: string) => ({
          actor_kind: 'person' as const, actor_id: ownerId, actor_name: null, ip: '192.0.2.1', action, subject_type: 'category', subject_id: subjectId, before: null, after: { name: action }
        })
        await store.auditLog.add(entry('category.created', '1'))
        const early = clock.at()
        clock.advance(60_000)
        await store.auditLog.add(entry('category.updated', '1'))
        await store.auditLog.add({ ...entry('auth.sign_in_failed', '2'), actor_kind: 'system', actor_id: null, actor_name: 'anonymous' })
        const actions = async (fields: Partial<ListQuery>): Promise<string[]> => (await store.auditLog.list(list(fields))).items.map((e) => e.action)
        assert.deepEqual(await actions({}), ['category.created', 'category.updated', 'auth.sign_in_failed'])
        assert.deepEqual(await actions({ exact: { action: ['category.updated', 'auth.sign_in_failed'] } }), ['category.updated', 'auth.sign_in_failed'])
        assert.deepEqual(await actions({ exact: { actor: [String(ownerId)] } }), ['category.created', 'category.updated'])
        assert.deepEqual(await actions({ exact: { subject_type: ['category'], subject_id: ['2'] } }), ['auth.sign_in_failed'])
        assert.deepEqual(await actions({ since: { created_since: clock.at() } }), ['category.updated', 'auth.sign_in_failed'])
        assert.deepEqual(await actions({ exact: { created_before: [clock.at()] } }), ['category.created'])
        const first = (await store.auditLog.list(list())).items[0]!
        assert.deepEqual([first.ip, first.after, first.before, first.created_at], ['192.0.2.1', { name: 'category.created' }, null, early])
        assert.equal(await store.auditLog.deleteBefore(clock.at(), 1000), 1)
        assert.equal(await store.auditLog.deleteBefore(clock.at(), 1000), 0)
        assert.equal((await store.auditLog.list(list())).total, 2)
      })
    })
  })
}
