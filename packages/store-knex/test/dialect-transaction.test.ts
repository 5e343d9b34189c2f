import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Knex } from 'knex'
import { testDialects } from '../src/testing.js'
import { lightTransaction, type TransactionControl } from '../src/dialects/light-transaction.js'
import { postgresTransactionControl } from '../src/dialects/postgres-statements.js'
import { sqliteTransactionControl } from '../src/dialects/sqlite-statements.js'
import { migratedStore } from './test-store.js'

/** `Dialect.transaction`: both dialects run it without knex's transaction object (`lightTransaction`); it must behave as knex's does. */

async function revision (knex: Knex): Promise<number> {
  const row = await knex('auth_revision').where('id', 1).first('revision') as { revision: number | string }
  return Number(row.revision)
}

async function bump (knex: Knex): Promise<void> {
  await knex('auth_revision').where('id', 1).increment('revision', 1)
}

class Planned extends Error {}

for (const dialect of testDialects()) {
  describe(`dialect.transaction (${dialect})`, () => {
    it('commits what the function wrote, through builders, raw statements and dialect.run, and returns its value', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      const value = await store.dialect.transaction(store.knex, async (trx) => {
        await bump(trx)
        await trx.raw('update auth_revision set revision = revision + 1 where id = 1')
        await store.dialect.run(trx, 'update auth_revision set revision = revision + 1 where id = 1', [])
        assert.equal(await revision(trx), before + 3)
        const [row] = await trx.count({ n: '*' }).from('auth_revision') as Array<{ n: number | string }>
        return Number(row?.n)
      })
      assert.equal(value, 1)
      assert.equal(await revision(store.knex), before + 3)
    })

    it('rolls everything back and rethrows the function\'s own error', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      const planned = new Planned('no')
      await assert.rejects(store.dialect.transaction(store.knex, async (trx) => {
        await bump(trx)
        await store.dialect.run(trx, 'update auth_revision set revision = revision + 1 where id = 1', [])
        throw planned
      }), (error) => error === planned)
      assert.equal(await revision(store.knex), before)
    })

    it('a query of another caller started meanwhile never sees the uncommitted write', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      let read: Promise<number> | undefined
      await assert.rejects(store.dialect.transaction(store.knex, async (trx) => {
        await bump(trx)
        read = revision(store.knex)
        // Give the outside read every chance to run now, inside the transaction.
        await new Promise((resolve) => setTimeout(resolve, 20))
        throw new Planned('roll back')
      }), Planned)
      assert.equal(await read, before)
    })

    it('nests as a savepoint: a failing inner transaction undoes only its own writes', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      await store.dialect.transaction(store.knex, async (trx) => {
        await bump(trx)
        await assert.rejects(trx.transaction(async (inner) => {
          await bump(inner)
          throw new Planned('inner')
        }), Planned)
        await trx.transaction(async (inner) => { await bump(inner) })
        // Several statements through runAll inside the transaction: a savepoint too.
        await store.dialect.runAll(trx, [['update auth_revision set revision = revision + 1 where id = 1', []], ['update auth_revision set revision = revision + 1 where id = 1', []]])
      })
      assert.equal(await revision(store.knex), before + 4)
    })

    it('a query on the transaction\'s knex after it ended fails instead of running outside it', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      let kept: Knex | undefined
      await store.dialect.transaction(store.knex, async (trx) => { kept = trx })
      await assert.rejects(bump(kept as Knex))
      assert.equal(await revision(store.knex), before)
    })

    it('reports BEGIN and COMMIT (or ROLLBACK) among the queries, as knex\'s transactions do', async (t) => {
      const store = await migratedStore(t, dialect)
      const seen: string[] = []
      const listener = (query: { sql: string }): void => { seen.push(query.sql.trim().toLowerCase().replace(/;$/, '')) }
      store.knex.on('query', listener)
      t.after(() => { store.knex.off('query', listener) })
      await store.dialect.transaction(store.knex, async (trx) => { await bump(trx) })
      await store.dialect.transaction(store.knex, async (trx) => { await bump(trx); throw new Planned('x') }).catch(() => {})
      assert.deepEqual(seen.filter((sql) => /^(begin|commit|rollback)/.test(sql)), ['begin', 'commit', 'begin', 'rollback'])
    })

    it('a statement that fails inside rolls back and hands the connection back: more failures than the pool has connections', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      for (let i = 0; i < 12; i++) {
        await assert.rejects(store.dialect.transaction(store.knex, async (trx) => {
          await bump(trx)
          // PostgreSQL refuses every further statement of the transaction after this: only ROLLBACK ends it.
          await trx.raw('select * from no_such_table')
        }), /no_such_table/)
      }
      assert.equal(await revision(store.knex), before)
      await store.dialect.transaction(store.knex, async (trx) => { await bump(trx) })
      assert.equal(await revision(store.knex), before + 1)
    })

    it('when ROLLBACK itself fails, rethrows the function\'s error and has the pool drop the connection, still in its transaction', async (t) => {
      const store = await migratedStore(t, dialect)
      const before = await revision(store.knex)
      const real = (dialect === 'sqlite' ? sqliteTransactionControl : postgresTransactionControl) as TransactionControl<unknown>
      const discarded: unknown[] = []
      const failingRollback = lightTransaction<unknown>({
        ...real,
        run: async (connection, sql) => {
          if (sql === 'rollback') throw new Error('link lost during rollback')
          await real.run(connection, sql)
        },
        discard: (connection, error) => { discarded.push(error); real.discard(connection, error) }
      })
      const planned = new Planned('the function failed')
      await assert.rejects(failingRollback(store.knex, async (trx) => {
        await bump(trx)
        throw planned
      }), (error) => error === planned)
      assert.deepEqual(discarded.map((error) => (error as Error).message), ['link lost during rollback'])
      // The uncommitted write goes with the dropped connection; the pool opens a new one, also for dialect.run
      // (which on SQLite uses an idle connection directly).
      const runRevision = async (): Promise<number> => {
        const rows = await store.dialect.run<{ revision: number | string }>(store.knex, 'select revision from auth_revision where id = 1', [])
        return Number(rows[0]?.revision)
      }
      assert.equal(await runRevision(), before)
      assert.equal(await revision(store.knex), before)
      await store.dialect.transaction(store.knex, async (trx) => { await bump(trx) })
      assert.equal(await runRevision(), before + 1)
    })
  })
}
