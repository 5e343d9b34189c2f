import type { Knex } from 'knex'
import { formatDateTime, type Clock, type Trigger } from '@helpdesk/core'
import type { Dialect } from '../dialects/dialect.js'
import { dialectOfKnex } from '../dialects/index.js'
import type { PointReads } from './point-reads.js'
import type { ReadMarks } from './read-marks.js'
import type { TicketRow } from '../rows/ticket-rows.js'

/** What a repository is built from: the connection (or open transaction), the dialect, a clock. */
export interface RepositoryContext {
  db: Knex
  dialect: Dialect
  clock: Clock
  /** Ticket reads, committed in groups: shared by the store and its transactions. */
  readMarks: ReadMarks
  /** Ticket reads by id gathered per turn (`ticketReadsById`): the pool's only, never a transaction's. */
  ticketsById?: PointReads<TicketRow>
  /** The active triggers as last read, with the list's version token: shared by the store and its transactions. */
  triggerList: TriggerListCache
}

/**
 * The active triggers of this process, kept with the `trigger_list_version`
 * token they were read under (migration 0043). Valid only while the token in
 * the database is the same: every reader checks it first, in its own
 * transaction.
 */
export interface TriggerListCache {
  entry: { token: string, triggers: readonly Trigger[] } | null
}

export function now (ctx: RepositoryContext): string {
  return formatDateTime(ctx.clock.now())
}

/** The id of an inserted row, on both drivers (`returning` is supported by better-sqlite3 and pg). */
export async function insertId (qb: Knex.QueryBuilder): Promise<number> {
  const rows = await qb.returning('id') as Array<{ id: number } | number>
  const first = rows[0]
  return typeof first === 'object' ? first.id : Number(first)
}

/** Inserts `rows` in batches of `size` (well under both databases' bound-parameter limits); returns their ids in order. */
export async function insertMany (db: Knex, table: string, rows: readonly object[], size: number): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < rows.length; i += size) {
    const inserted = await db(table).insert(rows.slice(i, i + size)).returning('id') as Array<{ id: number }>
    ids.push(...inserted.map((r) => r.id))
  }
  return ids
}

/** `table.column` names as quoted SQL (`"categories"."order"`), for statements written out. */
export function quoted (columns: readonly string[]): string {
  return columns.map((column) => column.split('.').map((part) => `"${part}"`).join('.')).join(', ')
}

/**
 * The rows of `table` whose integer id is in `ids`: one prepared statement,
 * the same text whatever the list (includes load a page's people and
 * categories this way on every list).
 */
export async function rowsByIds<Row> (db: Knex, table: string, columns: readonly string[], ids: ReadonlyArray<number | string>): Promise<Row[]> {
  const dialect = dialectOfKnex(db)
  const list = dialect.inIds(`"${table}"."id"`, ids.map(Number))
  return await dialect.run<Row>(db, `select ${quoted(columns)} from "${table}" where ${list.sql}`, list.bindings)
}

/** Row counts up to which `insertRows` writes the statement out (each count is one more statement kept prepared per connection). */
const PREPARED_INSERT_ROWS = 8

/**
 * Inserts `rows` (objects with the same keys) into `table` as a statement prepared once per
 * connection rather than through knex's builder, which costs more than the insert itself on the
 * hot writes (a comment, its event, its notifications); returns the new ids when `returningId`.
 * More rows than a few, or a value knex would have to translate (undefined), go through knex.
 */
export async function insertRows (ctx: RepositoryContext, table: string, rows: readonly object[], returningId: boolean): Promise<number[]> {
  if (rows.length === 0) return []
  const columns = Object.keys(rows[0] as object)
  const values = rows.map((row) => columns.map((column) => (row as Record<string, unknown>)[column]))
  const uniform = rows.every((row) => Object.keys(row).length === columns.length) && values.every((row) => !row.includes(undefined))
  if (rows.length > PREPARED_INSERT_ROWS || !uniform) {
    const query = ctx.db(table).insert(rows)
    if (!returningId) {
      await query
      return []
    }
    return (await query.returning('id') as Array<{ id: number | string }>).map((row) => Number(row.id))
  }
  const placeholders = `(${columns.map(() => '?').join(', ')})`
  const sql = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values ${rows.map(() => placeholders).join(', ')}` +
    (returningId ? ' returning "id"' : '')
  const inserted = await ctx.dialect.run<{ id: number | string }>(ctx.db, sql, values.flat())
  return inserted.map((row) => Number(row.id))
}
