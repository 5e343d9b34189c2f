import type { Knex } from 'knex'

/**
 * A full-text index of one table's rows (keyed by its integer `id`), each row
 * one document. SQLite keeps the documents in an FTS5 table `<table>_search`;
 * PostgreSQL in a stored `tsvector` column `search_document` of the table with
 * a GIN index, so matching never recomputes vectors from the text.
 */
export interface FullTextIndex {
  table: string
  /**
   * A second document of the same rows, named (e.g. `public`): kept in
   * `<table>_<document>_search` on SQLite and in a column
   * `<document>_search_document` on PostgreSQL.
   */
  document?: string
}

/** A query: phrases that must all match; the last word of each phrase matches as a prefix. */
export type FullTextQuery = string[][]

export interface FullTextSearch {
  /** Creates the index (migrations). A deleted row's document goes with it, whatever deleted it (cascades included). */
  createIndex(knex: Knex, index: FullTextIndex): Promise<void>
  dropIndex(knex: Knex, index: FullTextIndex): Promise<void>
  /** Compacts the index and the substring indexes of `tables` after bulk writes (SQLite merges FTS5 segments; PostgreSQL refreshes statistics). */
  optimize(knex: Knex, index: FullTextIndex, substringTables: string[]): Promise<void>
  /** Adds what `compile` needs to expand prefixes to an index made before it existed (idempotent; nothing on PostgreSQL). */
  createPrefixTerms(knex: Knex, index: FullTextIndex): Promise<void>
  /**
   * Replaces the documents of these rows in each of `indexes` (documents of
   * one table): `words[i]` (from `documentWords`) for `indexes[i]`. PostgreSQL
   * writes them all in one update of each row.
   */
  write(db: Knex, indexes: FullTextIndex[], documents: Array<{ id: number, words: string[][] }>): Promise<void>
  /**
   * Compiles a query for `index`, or null when no document can match. SQLite
   * expands each phrase's last word into the index's words that start with
   * it (what keeps a prefix search on a common word cheap).
   */
  compile(db: Knex, index: FullTextIndex, query: FullTextQuery): Promise<string | null>
  /** Ids (as `id`) of at most `limit` rows whose document matches, read from the index alone. */
  matchingIds(db: Knex, index: FullTextIndex, compiled: string, limit: number): Knex.QueryBuilder
  /** A condition true when the row whose id is `idColumn` matches: for scans that go in another order (a sort's index). */
  rowMatches(db: Knex, index: FullTextIndex, compiled: string, idColumn: string): Knex.Raw
  /**
   * Restricts `qb` (a query of `index.table` whose id is `idColumn`) to matching rows, read from the
   * full-text index first where the database allows: for counts that stop at a limit.
   */
  restrictToMatches(qb: Knex.QueryBuilder, index: FullTextIndex, compiled: string, idColumn: string): void
  /**
   * Indexes for case-insensitive substring matches of `substringMatchingIds`
   * and `substringRowMatches` on these text columns: trigram GIN indexes on
   * PostgreSQL, an FTS5 trigram table on SQLite (kept by triggers).
   */
  createSubstringIndexes(knex: Knex, table: string, columns: string[]): Promise<void>
  dropSubstringIndexes(knex: Knex, table: string, columns: string[]): Promise<void>
  /** Substrings shorter than this many characters are not looked up (no trigram to find them by). */
  readonly substringMinLength: number
  /** Ids (as `id`) of the rows (at most `limit`) of `table` with `value` in one of `columns`, read from the substring index. */
  substringMatchingIds(db: Knex, table: string, columns: readonly string[], value: string, limit?: number): Knex.QueryBuilder
  /**
   * The rows of `substringMatchingIds`, read at once (every search reads
   * them): a kept prepared statement on SQLite; on PostgreSQL the query as
   * is, planned for its pattern each time (a generic plan of `ilike $1`
   * cannot know the pattern and scans the table).
   */
  readSubstringMatchingIds(db: Knex, table: string, columns: readonly string[], value: string, limit: number): Promise<Array<{ id: number }>>
  /** A condition true when the `table` row whose id is `idColumn` has `value` in one of `columns`. */
  substringRowMatches(db: Knex, table: string, columns: readonly string[], value: string, idColumn: string): Knex.Raw
}

/** Rows written per statement: well under both databases' bound-parameter limits. */
export const FULL_TEXT_BATCH = 500

/**
 * The words of a text as both indexes store them: Unicode letters and digits,
 * lowercased, accents removed. Documents and queries both go through it, so
 * SQLite's and PostgreSQL's tokenizers see the same plain words.
 */
export function documentWords (text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
}

/** A search text as a query: each whitespace-separated term is a phrase of its words. */
export function fullTextQuery (text: string): FullTextQuery {
  return text.split(/\s+/).map(documentWords).filter((phrase) => phrase.length > 0).slice(0, 16)
}

/** Splits `items` into batches of `size`. */
export function batches<T> (items: readonly T[], size = FULL_TEXT_BATCH): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
