import { batches, type FullTextIndex, type FullTextSearch } from './full-text.js'

const searchTable = (index: FullTextIndex): string => `${index.table}_search`
const deleteTrigger = (index: FullTextIndex): string => `${index.table}_search_delete`

/**
 * FTS5, contentless (the text lives in the table itself; the index keeps only
 * tokens) with deletes enabled. The document's rowid is the row's id; a
 * trigger drops it with the row, also when a cascade deletes the row.
 */
export const sqliteFullText: FullTextSearch = {
  async createIndex (knex, index) {
    await knex.raw(`create virtual table ?? using fts5(document, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`, [searchTable(index)])
    await knex.raw('create trigger ?? after delete on ?? begin delete from ?? where rowid = old.id; end', [deleteTrigger(index), index.table, searchTable(index)])
  },
  async dropIndex (knex, index) {
    await knex.raw('drop trigger if exists ??', [deleteTrigger(index)])
    await knex.raw('drop table if exists ??', [searchTable(index)])
  },
  async write (db, index, documents) {
    for (const batch of batches(documents)) {
      await db.raw(
        `insert or replace into ?? (rowid, document) values ${batch.map(() => '(?, ?)').join(', ')}`,
        [searchTable(index), ...batch.flatMap((d) => [d.id, d.words.join(' ')])]
      )
    }
  },
  matchingIds (db, index, query) {
    const expression = query.map((phrase) => `"${phrase.join(' ')}"*`).join(' AND ')
    return db(searchTable(index)).select('rowid as id').whereRaw('?? match ?', [searchTable(index), expression])
  },
  async createSubstringIndexes () {
    // LIKE '%...%' cannot use a b-tree index; SQLite scans the table (users: small).
  },
  async dropSubstringIndexes () {}
}
