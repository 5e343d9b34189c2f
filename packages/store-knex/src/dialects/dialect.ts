import type { Knex } from 'knex'
import type { HelpdeskError } from '@helpdesk/core'
import type { FullTextSearch } from './full-text.js'

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this
 * interface; repositories never test which database they run on.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres'
  /** The knex configuration for a database URL of this dialect. */
  knexConfig(url: string): Knex.Config
  /** Case-insensitive substring match of `column` against `value` (already escaped for LIKE). */
  whereContains(qb: Knex.QueryBuilder, column: string, pattern: string): void
  /** A driver error as a domain error (unique violation -> 422 on its field, lost connection -> 503), or null. */
  translateError(error: unknown): HelpdeskError | null
  /** Full-text indexes (FTS5 / tsvector + GIN) and substring indexes (pg_trgm). */
  readonly fullText: FullTextSearch
}

/** `%` and `_` match literally; the result is wrapped for a substring match. */
export function containsPattern (value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
