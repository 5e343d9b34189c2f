import { dimensionValue, fillCounts, type CountTable, type CountTriggers } from './count-table.js'

const names = (counts: CountTable): string[] => ['insert', 'delete', 'update'].map((op) => `${counts.table}_${op}`)

/** Row triggers (SQLite writes one transaction at a time, so counters never contend). */
export const sqliteCountTriggers: CountTriggers = {
  async create (knex, counts) {
    const [insert, remove, update] = names(counts)
    const columns = counts.dimensions.map((d) => d.column).join(', ')
    const key = (prefix: string): string => counts.dimensions.map((d) => `${d.column} = ${dimensionValue(prefix, d)}`).join(' and ')
    const add = `insert into ${counts.table} (${columns}, total) values (${counts.dimensions.map((d) => dimensionValue('new.', d)).join(', ')}, 1) ` +
      `on conflict (${columns}) do update set total = total + 1;`
    const subtract = `update ${counts.table} set total = total - 1 where ${key('old.')};`
    const changed = counts.dimensions.map((d) => `old.${d.column} is not new.${d.column}`).join(' or ')
    await knex.raw(`create trigger ${insert} after insert on ${counts.source} begin ${add} end`)
    await knex.raw(`create trigger ${remove} after delete on ${counts.source} begin ${subtract} end`)
    await knex.raw(`create trigger ${update} after update of ${columns} on ${counts.source} when ${changed} begin ${subtract} ${add} end`)
    await fillCounts(knex, counts)
  },
  async drop (knex, counts) {
    for (const name of names(counts)) await knex.raw(`drop trigger if exists ${name}`)
  }
}
