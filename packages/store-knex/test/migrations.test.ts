import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { testDialects, type KnexStore } from '../src/index.js'
import { migrations, migrationSource } from '../src/migrations/index.js'
import { emptyStore } from './test-store.js'

/** The application's tables (knex's own bookkeeping and SQLite/PostgreSQL internals left out). */
async function tables (store: KnexStore): Promise<string[]> {
  const rows = store.dialect.name === 'sqlite'
    ? await store.knex.raw("select name from sqlite_master where type = 'table'") as Array<{ name: string }>
    : (await store.knex.raw("select table_name as name from information_schema.tables where table_schema = 'public'") as { rows: Array<{ name: string }> }).rows
  return rows.map((r) => r.name).filter((n) => !n.startsWith('knex_') && !n.startsWith('sqlite_')).sort()
}

for (const dialect of testDialects()) {
  describe(`migrations on ${dialect}`, () => {
    it('applies every migration in order, then has none pending', async (t) => {
      const store = await emptyStore(t, dialect)
      assert.deepEqual(await store.pendingMigrations(), migrations.map((m) => m.name))
      assert.deepEqual(await store.migrate(), migrations.map((m) => m.name))
      assert.deepEqual(await store.pendingMigrations(), [])
      assert.deepEqual(await store.migrate(), [], 'migrating again is a no-op')
      const names = migrations.map((m) => m.name)
      assert.deepEqual(names, [...names].sort(), 'migration names sort in the order they run')
      for (const table of ['users', 'api_tokens', 'categories', 'agent_categories', 'customer_notes']) {
        assert.ok((await tables(store)).includes(table), table)
      }
    })

    it('rolls every migration back down to an empty schema, and up again', async (t) => {
      const store = await emptyStore(t, dialect)
      await store.migrate()
      await store.knex.migrate.rollback({ migrationSource }, true)
      assert.deepEqual(await tables(store), [])
      assert.deepEqual(await store.pendingMigrations(), migrations.map((m) => m.name))
      assert.deepEqual(await store.migrate(), migrations.map((m) => m.name))
      assert.ok((await tables(store)).includes('users'))
    })

    it('rolls back one migration at a time', async (t) => {
      const store = await emptyStore(t, dialect)
      await store.migrate()
      for (let i = migrations.length - 1; i >= 0; i--) {
        await store.knex.migrate.down({ migrationSource })
        assert.deepEqual(await store.pendingMigrations(), migrations.slice(i).map((m) => m.name))
      }
      assert.deepEqual(await tables(store), [])
    })

    if (dialect === 'sqlite') {
      it('runs SQLite with WAL, foreign keys, and a busy timeout', async (t) => {
        const store = await emptyStore(t, dialect)
        await store.migrate()
        const pragma = async (name: string): Promise<unknown> => {
          const rows = await store.knex.raw(`pragma ${name}`) as Array<Record<string, unknown>>
          return Object.values(rows[0] ?? {})[0]
        }
        assert.equal(await pragma('journal_mode'), 'wal')
        assert.equal(await pragma('foreign_keys'), 1)
        assert.equal(await pragma('busy_timeout'), 5000)
        // Still on after a transaction (the pool's one connection keeps its pragmas).
        await store.transaction(async () => {})
        assert.equal(await pragma('foreign_keys'), 1)
      })
    }
  })
}
