import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { testDialects } from '../src/index.js'
import { emptyStore } from './test-store.js'

/** SQLSTATE class 22 (data exceptions) is the input's fault: a 4xx, never an unmapped error (a 500). */
if (testDialects().includes('postgres')) {
  describe('PostgreSQL data exceptions', () => {
    it('maps every class-22 error a query can raise to a 4xx', async (t) => {
      const store = await emptyStore(t, 'postgres')
      const failing = [
        `select 'not a time'::timestamp`, // 22007
        `select '2024-13-45 99:99:99'::timestamp`, // 22008
        'select 1 / 0', // 22012
        `select 'abc'::integer`, // 22P02
        'select 99999999999::integer', // 22003
        `select substring('abc' from 1 for -1)`, // 22011
        `select '{'::json` // 22P02
      ]
      for (const sql of failing) {
        const error = await store.knex.raw(sql).then(() => null, (e: unknown) => e) as { code?: string } | null
        if (error === null) continue
        assert.match(String(error.code), /^22/, sql)
        const mapped = store.dialect.translateError(error)
        assert.ok(mapped !== null && mapped.statusCode >= 400 && mapped.statusCode < 500, `${sql}: ${String(error.code)} unmapped`)
      }
    })
  })
}
