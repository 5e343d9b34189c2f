import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eventually } from '@helpdesk/core/testing'
import { createKnexStore, testDialects } from '../src/index.js'
import { testStore } from './test-store.js'


const event = (n: number) => ({ type: 'Test.Happened', actor_id: null, ticket_id: null, payload: { n } })

// Commit-only announcements are part of the store conformance suite (core/src/testing/store-conformance.ts).

describe('event notifier across processes (postgres)', { skip: !testDialects().includes('postgres') }, () => {
  it('reaches another store on the same database, and resyncs after losing its connection', async (t) => {
    const { store, url } = await testStore(t, 'postgres')
    const other = createKnexStore({ url })
    t.after(async () => { await other.close() })
    const heard: number[] = []
    let resyncs = 0
    const stop = await other.eventNotifier.listen({ ids: (ids) => { heard.push(...ids) }, resync: () => { resyncs++ } })
    t.after(stop)
    const first = await store.eventLog.append([event(1)])
    await eventually('the first announcement', () => heard.length === 1, { timeoutMs: 5000, intervalMs: 10 })
    assert.deepEqual(heard, first)
    // Kill the listening connection (the only one on the database issuing LISTEN).
    await store.knex.raw(`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN helpdesk_events%'`)
    await eventually('a resync after the lost connection', () => resyncs === 1, { timeoutMs: 10_000, intervalMs: 10 })
    const second = await store.eventLog.append([event(2)])
    await eventually('the announcement after reconnecting', () => heard.length === 2, { timeoutMs: 5000, intervalMs: 10 })
    assert.deepEqual(heard.slice(1), second)
  })

  it('announces through the event log\'s trigger: every id of a large append, at most 500 per notification, nothing of a rollback', async (t) => {
    const { store, url } = await testStore(t, 'postgres')
    const other = createKnexStore({ url })
    t.after(async () => { await other.close() })
    const notifications: number[][] = []
    const stop = await other.eventNotifier.listen({ ids: (ids) => { notifications.push(ids) }, resync: () => {} })
    t.after(stop)
    await assert.rejects(store.transaction(async (tx) => {
      await tx.eventLog.append([event(0)])
      throw new Error('rolled back')
    }), /rolled back/)
    // Inserted by hand, past the store: the trigger announces any insert.
    const rows = Array.from({ length: 1200 }, (_, n) => ({ type: 'Test.Happened', actor_id: null, ticket_id: null, payload: JSON.stringify({ n }), created_at: '2026-01-01 00:00:00' }))
    const inserted = await store.knex('event_log').insert(rows).returning('id') as Array<{ id: number }>
    await eventually('1,200 announced ids', () => notifications.flat().length >= 1200, { timeoutMs: 5000, intervalMs: 10 })
    assert.deepEqual(notifications.map((ids) => ids.length), [500, 500, 200])
    assert.deepEqual(notifications.flat(), inserted.map((row) => row.id).sort((a, b) => a - b))
  })
})
