import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { NewLoggedEvent } from '../event-log/event-log.js'
import { assertDistinct, type WithStore } from './conformance-support.js'

/** The contract of `EventLogRepository` (`event-log/event-log-store.ts`): every committed domain event, in order. */
export function eventLogConformance (withStore: WithStore): void {
  describe('event log', () => {
    it('append joins the transaction: ids in order, growing; nothing of a rolled-back transaction; the events as appended', async () => {
      await withStore(async ({ store, clock }) => {
        assert.equal(await store.eventLog.latestId(), 0, 'an empty log')
        assert.deepEqual(await store.eventLog.append([]), [])
        await assert.rejects(store.transaction(async (tx) => {
          await tx.eventLog.append([event('Test.RolledBack')])
          throw new Error('boom')
        }), /boom/)
        assert.deepEqual(await store.eventLog.after(0, 10), [])
        const ids = await store.transaction(async (tx) => [
          ...await tx.eventLog.append([event('Test.First', { ticket_id: 7, actor_id: null, payload: { ticket: { id: 7, title: 'T' }, list: [1, 'two', null] } }), event('Test.Second')]),
          ...await tx.eventLog.append([event('Test.Third', { actor_id: 3 })])
        ])
        assert.equal(ids.length, 3)
        assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids grow in the order appended (${ids.join(', ')})`)
        const logged = await store.eventLog.after(0, 10)
        assert.deepEqual(logged, [
          { id: ids[0], type: 'Test.First', actor_id: null, ticket_id: 7, payload: { ticket: { id: 7, title: 'T' }, list: [1, 'two', null] }, created_at: clock.at() },
          { id: ids[1], type: 'Test.Second', actor_id: null, ticket_id: null, payload: {}, created_at: clock.at() },
          { id: ids[2], type: 'Test.Third', actor_id: 3, ticket_id: null, payload: {}, created_at: clock.at() }
        ])
        assert.equal(await store.eventLog.latestId(), ids[2])
        // Many at once (more than a statement's worth of rows in some adapters).
        const many = await store.eventLog.append(Array.from({ length: 25 }, (_, i) => event('Test.Many', { payload: { i } })))
        assert.deepEqual((await store.eventLog.findByIds(many)).sort((a, b) => a.id - b.id).map((e) => e.payload.i), Array.from({ length: 25 }, (_, i) => i), 'each id is its event\'s')
        assert.ok(many.every((id, i) => i === 0 || id > many[i - 1]!), 'in order')
      })
    })

    it('after: the events after an id, oldest first, at most `limit`; findByIds: those that exist; latestId: the newest', async () => {
      await withStore(async ({ store }) => {
        const ids = await store.eventLog.append(['A', 'B', 'C', 'D', 'E'].map((type) => event(`Test.${type}`)))
        const types = (events: Array<{ type: string }>): string[] => events.map((e) => e.type)
        assert.deepEqual(types(await store.eventLog.after(ids[1]!, 10)), ['Test.C', 'Test.D', 'Test.E'])
        assert.deepEqual(types(await store.eventLog.after(ids[1]!, 2)), ['Test.C', 'Test.D'])
        assert.deepEqual(types(await store.eventLog.after(0, 1)), ['Test.A'])
        assert.deepEqual(await store.eventLog.after(ids[4]!, 10), [])
        assert.deepEqual(types((await store.eventLog.findByIds([ids[3]!, ids[0]!, 987654])).sort((a, b) => a.id - b.id)), ['Test.A', 'Test.D'])
        assert.deepEqual(await store.eventLog.findByIds([]), [])
        assert.equal(await store.eventLog.latestId(), ids[4])
      })
    })

    it('concurrent transactions: every id distinct, each transaction\'s in order, all of them read back in id order', async () => {
      await withStore(async ({ store }) => {
        const batches = await Promise.all(Array.from({ length: 8 }, async (_, w) => await store.transaction(async (tx) => [
          ...await tx.eventLog.append([event('Test.Concurrent', { payload: { w, n: 0 } })]),
          ...await tx.eventLog.append([event('Test.Concurrent', { payload: { w, n: 1 } }), event('Test.Concurrent', { payload: { w, n: 2 } })])
        ])))
        const all = batches.flat()
        assertDistinct(all, 'event ids')
        for (const batch of batches) assert.ok(batch[0]! < batch[1]! && batch[1]! < batch[2]!, `one transaction's ids in order (${batch.join(', ')})`)
        const logged = await store.eventLog.after(0, 100)
        assert.deepEqual(logged.map((e) => e.id), [...all].sort((a, b) => a - b))
        for (const [w, batch] of batches.entries()) {
          assert.deepEqual(batch.map((id) => logged.find((e) => e.id === id)?.payload), [{ w, n: 0 }, { w, n: 1 }, { w, n: 2 }])
        }
      })
    })

    it('deleteBefore removes at most `limit` events created before the time, the oldest first', async () => {
      await withStore(async ({ store, clock }) => {
        const old = await store.eventLog.append([event('Test.A'), event('Test.B'), event('Test.C')])
        clock.advance(60_000)
        const [recent] = await store.eventLog.append([event('Test.D')])
        assert.equal(await store.eventLog.deleteBefore(clock.at(), 2), 2)
        assert.deepEqual((await store.eventLog.after(0, 10)).map((e) => e.id), [old[2], recent])
        assert.equal(await store.eventLog.deleteBefore(clock.at(), 10), 1)
        assert.equal(await store.eventLog.deleteBefore(clock.at(), 10), 0)
        assert.deepEqual((await store.eventLog.after(0, 10)).map((e) => e.id), [recent])
        assert.equal(await store.eventLog.latestId(), recent)
      })
    })
  })
}

function event (type: string, fields: Partial<NewLoggedEvent> = {}): NewLoggedEvent {
  return { type, actor_id: null, ticket_id: null, payload: {}, ...fields }
}
