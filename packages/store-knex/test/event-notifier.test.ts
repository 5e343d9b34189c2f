import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createKnexStore, createTestDatabase, testDialects, type KnexStore } from '../src/index.js'

async function storeOn (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<{ store: KnexStore, url: string }> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  await store.migrate()
  t.after(async () => {
    await store.close()
    await db.drop()
  })
  return { store, url: db.url }
}

async function until (condition: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const event = (n: number) => ({ type: 'Test.Happened', actor_id: null, ticket_id: null, payload: { n } })

for (const dialect of testDialects()) {
  describe(`event notifier (${dialect})`, () => {
    it('announces appended event ids once their transaction commits, never after a rollback', async (t) => {
      const { store } = await storeOn(t, dialect)
      const heard: number[][] = []
      const stop = await store.eventNotifier.listen({ ids: (ids) => { heard.push(ids) }, resync: () => {} })
      t.after(stop)
      let ids: number[] = []
      let heardInside = -1
      await store.transaction(async (tx) => {
        ids = await tx.eventLog.append([event(1), event(2)])
        await new Promise((resolve) => setTimeout(resolve, 50))
        heardInside = heard.length
      })
      assert.equal(heardInside, 0, 'nothing is announced before commit')
      await until(() => heard.length === 1)
      assert.deepEqual(heard[0], ids)
      await assert.rejects(store.transaction(async (tx) => {
        await tx.eventLog.append([event(3)])
        throw new Error('roll back')
      }), /roll back/)
      const [after] = await store.eventLog.append([event(4)])
      await until(() => heard.length === 2)
      assert.deepEqual(heard[1], [after], 'the rolled-back append was never announced')
    })
  })
}

describe('event notifier across processes (postgres)', { skip: !testDialects().includes('postgres') }, () => {
  it('reaches another store on the same database, and resyncs after losing its connection', async (t) => {
    const { store, url } = await storeOn(t, 'postgres')
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
