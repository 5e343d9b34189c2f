import type { Knex } from 'knex'

/**
 * SQLite: drops the index value samples (`sqlite_stat4`) that an earlier
 * `optimize` (after a seed or an import) left, and keeps the row counts
 * (`sqlite_stat1`). With samples, SQLite compiles a kept statement again
 * before each run that compares an indexed column with a bound value
 * (`status = ?`): most list pages. `optimize` no longer keeps them (see
 * `dropValueSamples` in dialects/sqlite-full-text.ts). Frozen: it does not
 * call that helper. PostgreSQL: nothing to do.
 */
export async function up (knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return
  const tables = await knex.raw("select name from sqlite_master where type = 'table' and name = 'sqlite_stat4'") as unknown[]
  if (tables.length === 0) return
  await knex.raw('delete from sqlite_stat4')
  await knex.raw('analyze sqlite_schema')
}

/** The samples were statistics, not data: the next `optimize` (or ANALYZE) measures anew. */
export async function down (): Promise<void> {}
