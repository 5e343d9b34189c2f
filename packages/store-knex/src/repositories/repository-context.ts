import type { Knex } from 'knex'
import { formatDateTime, type Clock } from '@helpdesk/core'
import type { Dialect } from '../dialects/dialect.js'

/** What a repository is built from: the connection (or open transaction), the dialect, a clock. */
export interface RepositoryContext {
  db: Knex
  dialect: Dialect
  clock: Clock
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
