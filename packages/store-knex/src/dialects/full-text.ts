import type { Knex } from 'knex'

/**
 * A full-text index of one table's rows (keyed by its integer `id`), each row
 * one document. SQLite keeps the documents in an FTS5 table `<table>_search`;
 * PostgreSQL in a stored `tsvector` column `search_document` of the table with
 * a GIN index, so matching never recomputes vectors from the text.
 */
export interface FullTextIndex {
  table: string
}

/** A query: phrases that must all match; the last word of each phrase matches as a prefix. */
export type FullTextQuery = string[][]

export interface FullTextSearch {
  /** Creates the index (migrations). A deleted row's document goes with it, whatever deleted it (cascades included). */
  createIndex(knex: Knex, index: FullTextIndex): Promise<void>
  dropIndex(knex: Knex, index: FullTextIndex): Promise<void>
  /** Replaces the documents of these rows; `words` come from `documentWords`. */
  write(db: Knex, index: FullTextIndex, documents: Array<{ id: number, words: string[] }>): Promise<void>
  /** A query of the ids (as `id`) of the rows whose document matches `query` (never empty), read from the index. */
  matchingIds(db: Knex, index: FullTextIndex, query: FullTextQuery): Knex.QueryBuilder
  /**
   * Indexes for case-insensitive substring matches (`whereContains`) on these
   * text columns: trigram GIN indexes on PostgreSQL; nothing on SQLite, where
   * LIKE scans the (small) table.
   */
  createSubstringIndexes(knex: Knex, table: string, columns: string[]): Promise<void>
  dropSubstringIndexes(knex: Knex, table: string, columns: string[]): Promise<void>
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
