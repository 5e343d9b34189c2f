import type { Knex } from 'knex'

/**
 * A second search document per ticket without what only staff and the
 * ticket's owner may match (purchase code, owner's email and marketplace
 * username; CONTRACT §17): an FTS5 table `tickets_public_search` (with its
 * delete trigger and table of words) on SQLite, a `tsvector` column
 * `public_search_document` with a GIN index on PostgreSQL. Existing tickets
 * are indexed here. The DDL and the document's words are written out here
 * (not the store's full-text helpers, which may change later).
 */

const isPostgres = (knex: Knex): boolean => ['pg', 'postgres', 'postgresql'].includes(String((knex.client as { config?: { client?: unknown } }).config?.client ?? ''))

const BATCH = 500

/** The words of a text as the search indexes store them (a copy of `documentWords` as of this migration). */
function words (text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '')
}

/** Tags that end a word (as the body's plain text reads them): `<p>a</p><p>b</p>` reads "a b". */
const WORD_BREAKS = /<(?=\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b)/gi

/**
 * The text of a stored (already sanitized) body, for its words: tags out,
 * character references decoded. Punctuation is dropped by `words` anyway.
 * A ticket written later gets its document from the store's live code.
 */
function bodyText (html: string): string {
  return html.replace(WORD_BREAKS, ' <').replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, hex: string) => safeCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d{1,7});/g, (_, decimal: string) => safeCodePoint(Number(decimal)))
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
}

function safeCodePoint (code: number): string {
  return code > 0 && code <= 0x10FFFF ? String.fromCodePoint(code) : ' '
}

interface Source { id: number, title: string, body: string, first_name: string, last_name: string }

async function backfill (knex: Knex, write: (batch: Array<{ id: number, words: string[] }>) => Promise<void>): Promise<void> {
  let after = 0
  for (;;) {
    const rows = await knex('tickets').join('users', 'users.id', 'tickets.user_id')
      .select('tickets.id', 'tickets.title', 'tickets.body', 'users.first_name', 'users.last_name')
      .where('tickets.id', '>', after).orderBy('tickets.id').limit(BATCH) as Source[]
    if (rows.length === 0) return
    await write(rows.map((row) => ({ id: row.id, words: words([row.title, bodyText(row.body), row.first_name, row.last_name].join(' ')) })))
    after = (rows.at(-1) as Source).id
  }
}

export async function up (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw(`alter table tickets add column public_search_document tsvector not null default ''::tsvector`)
    await backfill(knex, async (batch) => {
      await knex.raw(
        `update tickets as t set public_search_document = to_tsvector('simple', v.words) from (values ${batch.map(() => '(?::integer, ?::text)').join(', ')}) as v(id, words) where t.id = v.id`,
        batch.flatMap((d) => [d.id, d.words.join(' ')])
      )
    })
    await knex.raw('create index tickets_public_search_document_index on tickets using gin (public_search_document) with (fastupdate = off)')
    await knex.raw('analyze tickets')
    return
  }
  await knex.raw(`create virtual table tickets_public_search using fts5(document, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`)
  await knex.raw('create trigger tickets_public_search_delete after delete on tickets begin delete from tickets_public_search where rowid = old.id; end')
  await knex.raw('create table tickets_public_search_terms (term text primary key) without rowid')
  await backfill(knex, async (batch) => {
    await knex.raw(`insert or replace into tickets_public_search (rowid, document) values ${batch.map(() => '(?, ?)').join(', ')}`,
      batch.flatMap((d) => [d.id, d.words.join(' ')]))
    const terms = [...new Set(batch.flatMap((d) => d.words))]
    for (let i = 0; i < terms.length; i += BATCH) {
      const chunk = terms.slice(i, i + BATCH)
      await knex.raw(`insert or ignore into tickets_public_search_terms (term) values ${chunk.map(() => '(?)').join(', ')}`, chunk)
    }
  })
  await knex.raw(`insert into tickets_public_search (tickets_public_search) values ('optimize')`)
}

export async function down (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('drop index if exists tickets_public_search_document_index')
    await knex.raw('alter table tickets drop column if exists public_search_document')
    return
  }
  await knex.raw('drop table if exists tickets_public_search_terms')
  await knex.raw('drop trigger if exists tickets_public_search_delete')
  await knex.raw('drop table if exists tickets_public_search')
}
