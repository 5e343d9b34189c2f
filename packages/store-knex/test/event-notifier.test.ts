import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createKnexStore, testDialects } from '../src/index.js'
import { testStore } from './test-store.js'

async function until (condition: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

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
    await until(() => heard.length === 1)
    assert.deepEqual(heard, first)
    // Kill the listening connection (the only one on the database issuing LISTEN).
    await store.knex.raw(`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN helpdesk_events%'`)
    await until(() => resyncs === 1, 10_000)
    const second = await store.eventLog.append([event(2)])
    await until(() => heard.length === 2, 5000)
    assert.deepEqual(heard.slice(1), second)
  })
})
