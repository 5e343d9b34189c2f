import { dimensionValue, fillCounts, type CountTable, type CountTriggers } from './count-table.js'

const fn = (counts: CountTable): string => `${counts.table}_apply`

/**
 * Statement triggers with transition tables: each statement's changes are
 * summed per group and applied in key order, so a bulk insert costs one
 * upsert per group, and concurrent transactions lock counter rows in the
 * same order and never deadlock on them.
 */
export const postgresCountTriggers: CountTriggers = {
  async create (knex, counts) {
    const columns = counts.dimensions.map((d) => d.column).join(', ')
    const values = counts.dimensions.map((d) => dimensionValue('', d)).join(', ')
    const rows = (table: string, sign: number): string => `select ${values}, ${sign} as n from ${table}`
    const apply = (parts: string[]): string =>
      `insert into ${counts.table} (${columns}, total) select ${columns}, total from (` +
      `select ${columns}, sum(n) as total from (${parts.join(' union all ')}) as d (${columns}, n) group by ${columns}` +
      `) as delta where total <> 0 order by ${columns} ` +
      `on conflict (${columns}) do update set total = ${counts.table}.total + excluded.total;`
    await knex.raw(`create function ${fn(counts)}() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${apply([rows('new_rows', 1)])}
  elsif tg_op = 'DELETE' then
    ${apply([rows('old_rows', -1)])}
  else
    ${apply([rows('old_rows', -1), rows('new_rows', 1)])}
  end if;
  return null;
end
$$`)
    await knex.raw(`create trigger ${counts.table}_insert after insert on ${counts.source} referencing new table as new_rows for each statement execute function ${fn(counts)}()`)
    await knex.raw(`create trigger ${counts.table}_delete after delete on ${counts.source} referencing old table as old_rows for each statement execute function ${fn(counts)}()`)
    await knex.raw(`create trigger ${counts.table}_update after update on ${counts.source} referencing old table as old_rows new table as new_rows for each statement execute function ${fn(counts)}()`)
    await fillCounts(knex, counts)
  },
  async drop (knex, counts) {
    for (const op of ['insert', 'delete', 'update']) await knex.raw(`drop trigger if exists ${counts.table}_${op} on ${counts.source}`)
    await knex.raw(`drop function if exists ${fn(counts)}()`)
  }
}
