import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Knex } from 'knex'
import { parseListQuery, ticketList } from '@helpdesk/core'
import { up as dropSamples } from '../src/migrations/0016-sqlite-value-samples.js'
import { testDialects } from '../src/testing.js'
import { queriesOf } from './test-store.js'
import { deskOn, ticket } from './use-case-fixtures.js'

/**
 * What keeps SQLite's prepared statements reusable: a statement whose plan
 * depends on a bound value (a bound LIMIT, or an indexed column compared with
 * a bound value while index samples exist) is compiled again before every
 * run. better-sqlite3 does not report recompiles, so these check the causes.
 */

/** The statements knex reports while `fn` runs, their SQL in lower case. */
async function statementsOf (knex: Knex, fn: () => Promise<unknown>): Promise<Array<{ sql: string, bindings: unknown[] }>> {
  return (await queriesOf(knex, fn)).map((query) => ({ ...query, sql: query.sql.toLowerCase() }))
}

async function tableRows (knex: Knex, table: string): Promise<number> {
  const [row] = await knex.raw(`select count(*) as n from ${table}`) as Array<{ n: number }>
  return Number(row?.n ?? 0)
}

for (const dialect of testDialects()) {
  describe(`statement reuse (${dialect})`, () => {
    it('a list page and a cursor page write their limit into the statement, not as a bound value', async (t) => {
      const d = await deskOn(t, dialect)
      for (let i = 0; i < 3; i++) await ticket(d, d.alice, { category: d.billing })
      const pageSql = (seen: Array<{ sql: string }>): string => seen.map((s) => s.sql).find((sql) => sql.includes('order by')) ?? ''
      const paged = await statementsOf(d.store.knex, async () => {
        const page = await d.helpdesk.tickets.list(d.admin, parseListQuery(ticketList, { per_page: 2, page: 2, filters: { status: '1' } }))
        assert.deepEqual([page.items.length, page.total], [1, 3])
      })
      assert.match(pageSql(paged), /limit 2 offset /)
      const cursor = await statementsOf(d.store.knex, async () => {
        const page = await d.helpdesk.tickets.list(d.admin, parseListQuery(ticketList, { per_page: 2, cursor: '' }))
        assert.equal(page.items.length, 2)
        assert.notEqual(page.cursors?.next ?? null, null)
      })
      assert.match(pageSql(cursor), /limit 3$/)
    })

    it('optimize keeps the planner\'s row counts and no index value samples', async (t) => {
      const d = await deskOn(t, dialect)
      for (let i = 0; i < 3; i++) await ticket(d, d.alice, { category: d.billing })
      await d.store.optimize()
      if (dialect === 'postgres') return
      assert.ok(await tableRows(d.store.knex, 'sqlite_stat1') > 0)
      assert.equal(await tableRows(d.store.knex, 'sqlite_stat4'), 0)
    })

    it('migration 0016 drops the samples an earlier ANALYZE left', async (t) => {
      const d = await deskOn(t, dialect)
      for (let i = 0; i < 3; i++) await ticket(d, d.alice, { category: d.billing })
      if (dialect === 'postgres') {
        await dropSamples(d.store.knex)
        return
      }
      await d.store.knex.raw('analyze')
      assert.ok(await tableRows(d.store.knex, 'sqlite_stat4') > 0)
      await dropSamples(d.store.knex)
      assert.equal(await tableRows(d.store.knex, 'sqlite_stat4'), 0)
      assert.ok(await tableRows(d.store.knex, 'sqlite_stat1') > 0)
    })
  })
}
