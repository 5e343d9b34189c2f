import type { Knex } from 'knex'
import type { TestContext } from 'node:test'
import type { Clock } from '@helpdesk/core'
import { createKnexStore, createTestDatabase, type KnexStore } from '../src/index.js'

/** A store on a fresh database of `dialect`, migrated unless `migrate: false`; closed and dropped after the test. */
export async function testStore (t: TestContext, dialect: 'sqlite' | 'postgres', options: { migrate?: boolean, clock?: Clock } = {}): Promise<{ store: KnexStore, url: string }> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url, ...(options.clock !== undefined ? { clock: options.clock } : {}) })
  t.after(async () => {
    await store.close()
    await db.drop()
  })
  if (options.migrate !== false) await store.migrate()
  return { store, url: db.url }
}

/** A store on a fresh, migrated database of `dialect`. */
export async function migratedStore (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<KnexStore> {
  return (await testStore(t, dialect)).store
}

/** A store on a fresh database of `dialect` with no migrations run. */
export async function emptyStore (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<KnexStore> {
  return (await testStore(t, dialect, { migrate: false })).store
}

/** The statements (text and bindings) knex reports on `knex` while `fn` runs. */
export async function queriesOf (knex: Knex, fn: () => Promise<unknown>): Promise<Array<{ sql: string, bindings: unknown[] }>> {
  const seen: Array<{ sql: string, bindings: unknown[] }> = []
  const listener = (query: { sql: string, bindings?: unknown[] }): void => { seen.push({ sql: query.sql, bindings: query.bindings ?? [] }) }
  knex.on('query', listener)
  try {
    await fn()
  } finally {
    knex.off('query', listener)
  }
  return seen
}
