import { containsPattern } from './dialect.js'
import { batches, type FullTextIndex, type FullTextSearch } from './full-text.js'

const documentColumn = (index: FullTextIndex): string => index.document === undefined ? 'search_document' : `${index.document}_search_document`
const indexName = (index: FullTextIndex): string => `${index.table}_${documentColumn(index)}_index`
const trigramIndex = (table: string, column: string): string => `${table}_${column}_trgm_index`

/**
 * A stored `tsvector` column with a GIN index (it goes with its row). The column is written by the
 * store (not computed by an expression index), so a match reads the index and
 * never re-parses text. The GIN indexes have no pending list (`fastupdate =
 * off`): writes update them at once, so a search never scans an unsorted
 * backlog and the planner keeps choosing the index over a sequential scan.
 * Words are already normalised; the `simple` configuration only splits them.
 * Substring matches use trigram GIN indexes (`ilike`).
 */
export const postgresFullText: FullTextSearch = {
  async createIndex (knex, index) {
    await knex.raw(`alter table ?? add column ?? tsvector not null default ''::tsvector`, [index.table, documentColumn(index)])
    await knex.raw('create index ?? on ?? using gin (??) with (fastupdate = off)', [indexName(index), index.table, documentColumn(index)])
  },
  async dropIndex (knex, index) {
    await knex.raw('drop index if exists ??', [indexName(index)])
    await knex.raw('alter table ?? drop column if exists ??', [index.table, documentColumn(index)])
  },
  async optimize (knex, index, substringTables) {
    // GIN indexes without a pending list need no merging; the planner needs fresh statistics after a bulk load.
    await knex.raw(`analyze ${[index.table, ...substringTables].map(() => '??').join(', ')}`, [index.table, ...substringTables])
  },
  async createPrefixTerms () {
    // GIN indexes look prefixes up themselves.
  },
  async write (db, indexes, documents) {
    const table = indexes[0]?.table
    if (table === undefined || indexes.some((index) => index.table !== table)) throw new Error('write takes the documents of one table')
    const columns = indexes.map((_, i) => `?? = to_tsvector('simple', v.words${i})`).join(', ')
    const values = `(?::integer${indexes.map(() => ', ?::text').join('')})`
    const names = ['id', ...indexes.map((_, i) => `words${i}`)].join(', ')
    for (const batch of batches(documents)) {
      await db.raw(
        `update ?? as t set ${columns} from (values ${batch.map(() => values).join(', ')}) as v(${names}) where t.id = v.id`,
        [table, ...indexes.map(documentColumn), ...batch.flatMap((d) => [d.id, ...indexes.map((_, i) => (d.words[i] ?? []).join(' '))])]
      )
    }
  },
  async compile (_db, _index, query) {
    return query.map((phrase) => phrase.map((word, i) => i === phrase.length - 1 ? `${word}:*` : word).join(' <-> ')).join(' & ')
  },
  matchingIds (db, index, compiled, limit) {
    return db(index.table).select('id').whereRaw(`?? @@ to_tsquery('simple', ?)`, [documentColumn(index), compiled]).limit(limit)
  },
  rowMatches (db, index, compiled, idColumn) {
    // The document is a column of the row itself.
    const table = idColumn.slice(0, idColumn.lastIndexOf('.'))
    return db.raw(`?? @@ to_tsquery('simple', ?)`, [`${table}.${documentColumn(index)}`, compiled])
  },
  restrictToMatches (qb, index, compiled, idColumn) {
    const table = idColumn.slice(0, idColumn.lastIndexOf('.'))
    void qb.whereRaw(`?? @@ to_tsquery('simple', ?)`, [`${table}.${documentColumn(index)}`, compiled])
  },
  async createSubstringIndexes (knex, table, columns) {
    await knex.raw('create extension if not exists pg_trgm')
    for (const column of columns) {
      await knex.raw('create index if not exists ?? on ?? using gin (?? gin_trgm_ops) with (fastupdate = off)', [trigramIndex(table, column), table, column])
    }
  },
  async dropSubstringIndexes (knex, table, columns) {
    for (const column of columns) await knex.raw('drop index if exists ??', [trigramIndex(table, column)])
  },
  substringMinLength: 3,
  substringMatchingIds (db, table, columns, value, limit) {
    const anyColumn = ilikeAny(table, columns, value)
    const ids = db(table).select('id').whereRaw(anyColumn.sql, anyColumn.bindings)
    return limit === undefined ? ids : ids.limit(limit)
  },
  async readSubstringMatchingIds (db, table, columns, value, limit) {
    // Written out (no query builder), but not a named prepared statement: knex's unnamed statement is planned for each pattern.
    const anyColumn = ilikeAny(table, columns, value)
    const result = await db.raw(`select ?? from ?? where ${anyColumn.sql} limit ?`,
      [`${table}.id`, table, ...anyColumn.bindings, limit]) as { rows: Array<{ id: number }> }
    return result.rows
  },
  substringRowMatches (db, table, columns, value, idColumn) {
    const anyColumn = ilikeAny(table, columns, value)
    return db.raw(`exists (select 1 from ?? where ?? = ?? and ${anyColumn.sql})`, [table, `${table}.id`, idColumn, ...anyColumn.bindings])
  }
}

/** `value` as a case-insensitive substring of any of `columns` (one trigram index each), as knex raw SQL with its bindings. */
function ilikeAny (table: string, columns: readonly string[], value: string): { sql: string, bindings: string[] } {
  const pattern = containsPattern(value)
  return {
    sql: `(${columns.map(() => '?? ilike ?').join(' or ')})`,
    bindings: columns.flatMap((column) => [`${table}.${column}`, pattern])
  }
}
