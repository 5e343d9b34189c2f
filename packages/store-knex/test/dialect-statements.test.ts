import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Knex } from 'knex'
import { testDialects } from '../src/testing.js'
import { migratedStore, queriesOf } from './test-store.js'

const BUMP = 'update auth_revision set revision = revision + 1 where id = 1'
/** Fails: the row exists. */
const DUPLICATE = 'insert into auth_revision (id, revision) values (1, 0)'

async function revision (knex: Knex): Promise<number> {
  const row = await knex('auth_revision').where('id', 1).first('revision') as { revision: number | string }
  return Number(row.revision)
}

/** The SQL texts knex reports while `fn` runs. */
async function statementsOf (knex: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  return (await queriesOf(knex, fn)).map((query) => query.sql.trim().toLowerCase())
}

for (const dialect of testDialects()) {
  describe(`dialect.runAll (${dialect})`, () => {
    it('sends a single statement alone, as its own transaction (no BEGIN/COMMIT round trips)', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      const sent = await statementsOf(store.knex, async () => { await store.dialect.runAll(store.knex, [[BUMP, []]]) })
      assert.deepEqual(sent, [BUMP])
      assert.equal(await revision(store.knex), before + 1)
    })

    it('runs several statements in one transaction: a failing one undoes the others', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      await assert.rejects(store.dialect.runAll(store.knex, [[BUMP, []], [DUPLICATE, []]]))
      assert.equal(await revision(store.knex), before)
      await store.dialect.runAll(store.knex, [[BUMP, []], [BUMP, []]])
      assert.equal(await revision(store.knex), before + 2)
    })

    it('inside an open transaction, a failing single statement leaves that transaction usable (a savepoint)', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      await store.knex.transaction(async (trx) => {
        await store.dialect.runAll(trx, [[BUMP, []]])
        await assert.rejects(store.dialect.runAll(trx, [[DUPLICATE, []]]))
        // PostgreSQL refuses every further statement of a transaction a failure aborted, unless it was a savepoint's.
        await store.dialect.runAll(trx, [[BUMP, []]])
      })
      assert.equal(await revision(store.knex), before + 2)
    })
  })
}
