import type { TestContext } from 'node:test'
import { createKnexStore, createTestDatabase, type KnexStore } from '../src/index.js'

/** A store on a fresh, migrated database of `dialect`; closed and dropped after the test. */
export async function migratedStore (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<KnexStore> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  await store.migrate()
  t.after(async () => {
    await store.close()
    await db.drop()
  })
  return store
}
