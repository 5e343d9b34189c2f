import type { Knex } from 'knex'
import { batches, type FullTextIndex, type FullTextSearch } from './full-text.js'
import { sqliteRun } from './sqlite-statements.js'

const baseName = (index: FullTextIndex): string => index.document === undefined ? index.table : `${index.table}_${index.document}`
const searchTable = (index: FullTextIndex): string => `${baseName(index)}_search`
const deleteTrigger = (index: FullTextIndex): string => `${baseName(index)}_search_delete`
/** Every word any document ever held (never pruned: a stale word only widens an expansion with a word nothing matches). */
const termsTable = (index: FullTextIndex): string => `${baseName(index)}_search_terms`
const substringTable = (table: string): string => `${table}_substring`

/**
 * A prefix expands into at most this many words; a shorter prefix (more
 * words) falls back to FTS5's own prefix query, which merges every matching
 * word's postings up front.
 */
const EXPANSION_LIMIT = 64

/** An FTS5 string: double quotes, inner ones doubled. */
const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`
/** `text` as a phrase looked for in these columns only (FTS5 column filter). */
const inColumns = (columns: readonly string[], text: string): string => `{${columns.join(' ')}} : ${quoted(text)}`

/**
 * Keeps ANALYZE's row counts (`sqlite_stat1`) and drops its index value
 * samples (`sqlite_stat4`, in builds with STAT4 such as better-sqlite3's).
 * With samples, SQLite reads bound values while planning, so a kept prepared
 * statement comparing an indexed column with a bound value (`status = ?`, on
 * most list pages) is compiled again before every run. The store picks its
 * indexes itself on SQLite (`Dialect.plansFromStatistics`), so the samples
 * bought nothing. `analyze sqlite_schema` makes this connection reload.
 */
async function dropValueSamples (knex: Knex): Promise<void> {
  const tables = await knex.raw("select name from sqlite_master where type = 'table' and name = 'sqlite_stat4'") as unknown[]
  if (tables.length === 0) return
  await knex.raw('delete from sqlite_stat4')
  await knex.raw('analyze sqlite_schema')
}

/**
 * FTS5, contentless (the text lives in the table itself; the index keeps only
 * tokens) with deletes enabled. The document's rowid is the row's id; a
 * trigger drops it with the row, also when a cascade deletes the row. A table
 * of the indexed words turns a prefix (`acc*`) into an OR of whole words,
 * which FTS5 streams in id order (a prefix query would first merge every
 * matching posting list). Substring indexes are FTS5 trigram tables over the
 * columns, kept by triggers.
 */
export const sqliteFullText: FullTextSearch = {
  async createIndex (knex, index) {
    await knex.raw(`create virtual table ?? using fts5(document, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`, [searchTable(index)])
    await knex.raw('create trigger ?? after delete on ?? begin delete from ?? where rowid = old.id; end', [deleteTrigger(index), index.table, searchTable(index)])
    await this.createPrefixTerms(knex, index)
  },
  async dropIndex (knex, index) {
    await knex.raw('drop table if exists ??', [termsTable(index)])
    await knex.raw('drop trigger if exists ??', [deleteTrigger(index)])
    await knex.raw('drop table if exists ??', [searchTable(index)])
  },
  async optimize (knex, index, substringTables) {
    // A probe (`rowMatches`) searches every segment of the index: one segment after a bulk load keeps it cheap.
    for (const table of [searchTable(index), ...substringTables.map(substringTable)]) await knex.raw(`insert into ??(??) values ('optimize')`, [table, table])
    await knex.raw('analyze')
    await dropValueSamples(knex)
  },
  async createPrefixTerms (knex, index) {
    await knex.raw('create table if not exists ?? (term text primary key) without rowid', [termsTable(index)])
    // The words of documents written before this table existed, read once from the index's own vocabulary.
    const vocabulary = `${searchTable(index)}_vocabulary`
    await knex.raw(`create virtual table temp.?? using fts5vocab(main, ??, 'row')`, [vocabulary, searchTable(index)])
    await knex.raw('insert or ignore into ?? (term) select term from temp.??', [termsTable(index), vocabulary])
    await knex.raw('drop table temp.??', [vocabulary])
  },
  async write (db, indexes, documents) {
    for (const [i, index] of indexes.entries()) {
      for (const batch of batches(documents)) {
        await db.raw(
          `insert or replace into ?? (rowid, document) values ${batch.map(() => '(?, ?)').join(', ')}`,
          [searchTable(index), ...batch.flatMap((d) => [d.id, (d.words[i] ?? []).join(' ')])]
        )
        const terms = [...new Set(batch.flatMap((d) => d.words[i] ?? []))]
        for (const chunk of batches(terms)) {
          await db.raw(`insert or ignore into ?? (term) values ${chunk.map(() => '(?)').join(', ')}`, [termsTable(index), ...chunk])
        }
      }
    }
  },
  async compile (db, index, query) {
    const phrases: string[] = []
    for (const phrase of query) {
      const last = phrase.at(-1) as string
      const head = phrase.slice(0, -1)
      const words = await sqliteRun<{ term: string }>(db,
        `select term from "${termsTable(index)}" where term >= ? and term < ? order by term limit ${EXPANSION_LIMIT + 1}`, [last, `${last}\u{10FFFF}`])
      if (words.length === 0) return null
      phrases.push(words.length > EXPANSION_LIMIT
        ? `${quoted(phrase.join(' '))}*`
        : `(${words.map((w) => quoted([...head, w.term].join(' '))).join(' OR ')})`)
    }
    return phrases.join(' AND ')
  },
  matchingIds (db, index, compiled, limit) {
    return db(searchTable(index)).select('rowid as id').whereRaw('?? match ?', [searchTable(index), compiled]).limit(limit, { skipBinding: true })
  },
  rowMatches (db, index, compiled, idColumn) {
    return db.raw('exists (select 1 from ?? where ?? match ? and rowid = ??)', [searchTable(index), searchTable(index), compiled, idColumn])
  },
  restrictToMatches (qb, index, compiled, idColumn) {
    void qb.join(searchTable(index), `${searchTable(index)}.rowid`, idColumn).whereRaw('?? match ?', [searchTable(index), compiled])
  },
  async createSubstringIndexes (knex, table, columns) {
    const name = substringTable(table)
    const list = columns.join(', ')
    const values = (prefix: string): string => columns.map((c) => `${prefix}.${c}`).join(', ')
    await knex.raw(`create virtual table if not exists ${name} using fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`)
    await knex.raw(`insert into ${name} (${name}) values ('rebuild')`)
    await knex.raw(`create trigger if not exists ${name}_insert after insert on ${table} begin
      insert into ${name} (rowid, ${list}) values (new.id, ${values('new')}); end`)
    await knex.raw(`create trigger if not exists ${name}_delete after delete on ${table} begin
      insert into ${name} (${name}, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`)
    await knex.raw(`create trigger if not exists ${name}_update after update of ${list} on ${table} begin
      insert into ${name} (${name}, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into ${name} (rowid, ${list}) values (new.id, ${values('new')}); end`)
  },
  async dropSubstringIndexes (knex, table) {
    for (const op of ['insert', 'delete', 'update']) await knex.raw(`drop trigger if exists ${substringTable(table)}_${op}`)
    await knex.raw(`drop table if exists ${substringTable(table)}`)
  },
  substringMinLength: 3,
  substringMatchingIds (db, table, columns, value, limit) {
    const name = substringTable(table)
    const ids = db(name).select('rowid as id').whereRaw('?? match ?', [name, inColumns(columns, value)])
    return limit === undefined ? ids : ids.limit(limit, { skipBinding: true })
  },
  async readSubstringMatchingIds (db, table, columns, value, limit) {
    const name = substringTable(table)
    // The limit is written out, not bound: see `limitTo`.
    return await sqliteRun<{ id: number }>(db, `select rowid as "id" from "${name}" where "${name}" match ? limit ${Math.trunc(limit)}`, [inColumns(columns, value)])
  },
  substringRowMatches (db, table, columns, value, idColumn) {
    const name = substringTable(table)
    return db.raw('exists (select 1 from ?? where ?? match ? and rowid = ??)', [name, name, inColumns(columns, value), idColumn])
  }
}
