import { runStoreConformance } from '@helpdesk/core/testing'
import { createKnexStore, createTestDatabase, testDialects } from '../src/index.js'

/** The store contract every adapter keeps (`@helpdesk/core/testing`), on each database. */
for (const dialect of testDialects()) {
  runStoreConformance(async ({ clock }) => {
    const db = await createTestDatabase(dialect)
    const store = createKnexStore({ url: db.url, clock })
    await store.migrate()
    let statements = 0
    store.knex.on('query', () => { statements++ })
    return {
      store,
      statements: () => statements,
      close: async () => { await store.close(); await db.drop() }
    }
  }, { name: `knex on ${dialect}` })
}
