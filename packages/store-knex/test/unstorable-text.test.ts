import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ValidationError } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { migratedStore } from './test-store.js'

for (const dialect of testDialects()) {
  describe(`text the database cannot store, on ${dialect}`, () => {
    it('turns a NUL character into a ValidationError on PostgreSQL (not a driver error), and writes nothing', async (t) => {
      const store = await migratedStore(t, dialect)
      const write = store.categories.create({ name: 'a\u0000b', order: 1 })
      if (dialect === 'postgres') {
        await assert.rejects(write, (error: unknown) => {
          assert.ok(error instanceof ValidationError, `not a ValidationError: ${String(error)}`)
          assert.deepEqual(Object.keys(error.errors), ['text'])
          return true
        })
        assert.equal(Number((await store.knex('categories').count({ n: '*' }).first() as { n: number | string }).n), 0)
      } else {
        // SQLite stores it; the HTTP API refuses NUL for both databases before it gets here.
        assert.equal((await write).name, 'a\u0000b')
      }
    })
  })
}
