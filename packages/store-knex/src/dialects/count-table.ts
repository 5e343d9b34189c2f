import type { Knex } from 'knex'

/**
 * A table of row counts kept by triggers: at any time it holds
 * `SELECT dimensions, count(*) FROM source GROUP BY dimensions` (groups that
 * emptied stay, with 0), in the transaction of every write to `source`,
 * cascades included. The table (dimension columns, `total`, primary key on
 * the dimensions in their order) is created by the migration.
 */
export interface CountTable {
  source: string
  table: string
  /** Grouping columns, named as in `source`; a nullable one is stored as 0 for null. */
  dimensions: Array<{ column: string, nullAsZero?: boolean }>
}

export interface CountTriggers {
  /** Creates the triggers and fills the table from `source`'s current rows. */
  create(knex: Knex, counts: CountTable): Promise<void>
  drop(knex: Knex, counts: CountTable): Promise<void>
}

/** `column`, or `coalesce(prefix.column, 0)` for a dimension stored as 0 when null. */
export function dimensionValue (prefix: string, dimension: CountTable['dimensions'][number]): string {
  const value = `${prefix}${dimension.column}`
  return dimension.nullAsZero === true ? `coalesce(${value}, 0)` : value
}

/** Fills the table from the source's rows (at creation, when the triggers start from what exists). */
export async function fillCounts (knex: Knex, counts: CountTable): Promise<void> {
  const columns = counts.dimensions.map((d) => d.column).join(', ')
  const values = counts.dimensions.map((d) => dimensionValue('', d)).join(', ')
  await knex.raw(`insert into ${counts.table} (${columns}, total) select ${values}, count(*) from ${counts.source} group by ${values}`)
}
