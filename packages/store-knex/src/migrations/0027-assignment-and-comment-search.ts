import type { Knex } from 'knex'

/**
 * Issue 35, part one:
 * - agents covering all categories: an administrator marks an agent as
 *   covering every category, present and future (`users.all_categories`),
 *   instead of listing them one by one;
 * - ticket search finds comments: the full and public documents also hold
 *   the ticket's replies (the public one only its public replies), and a
 *   third document, staff's, holds the full one and the internal notes: an
 *   FTS5 table `tickets_staff_search` (with its delete trigger and table of
 *   words) on SQLite, a `tsvector` column `staff_search_document` with a GIN
 *   index on PostgreSQL. Every existing ticket's documents are rebuilt here.
 * The DDL and the documents' words are written out here (not the store's
 * full-text helpers, which may change later). Frozen DDL.
 */

const isPostgres = (knex: Knex): boolean => ['pg', 'postgres', 'postgresql'].includes(String((knex.client as { config?: { client?: unknown } }).config?.client ?? ''))

const BATCH = 500
const COMMENT_TEXT_MAX = 100_000
const COMMENT_WORDS_MAX = 100_000

/** The words of a text as the search indexes store them (a copy of `documentWords` as of this migration). */
function words (text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '')
}

/** Tags that end a word (as the body's plain text reads them): `<p>a</p><p>b</p>` reads "a b". */
const WORD_BREAKS = /<(?=\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b)/gi

/** The text of a stored (already sanitized) body, for its words: tags out, character references decoded. */
function bodyText (html: string, max = 1_000_000): string {
  return html.slice(0, max * 4).replace(WORD_BREAKS, ' <').replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, hex: string) => safeCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d{1,7});/g, (_, decimal: string) => safeCodePoint(Number(decimal)))
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .slice(0, max)
}

function safeCodePoint (code: number): string {
  return code > 0 && code <= 0x10FFFF ? String.fromCodePoint(code) : ' '
}

interface Source {
  id: number, title: string, body: string, additional: string | null,
  first_name: string, last_name: string, email: string, marketplace_username: string | null
}
interface CommentSource { ticket_id: number, type: number, private: number | boolean, body: string }
interface Documents { id: number, full: string[], public: string[], staff: string[] }

function purchaseCodeOf (additional: string | null): string {
  try {
    const parsed = JSON.parse(additional ?? '{}') as { purchase_code?: unknown }
    return typeof parsed.purchase_code === 'string' ? parsed.purchase_code : ''
  } catch {
    return ''
  }
}

async function backfill (knex: Knex, write: (batch: Documents[]) => Promise<void>): Promise<void> {
  let after = 0
  for (;;) {
    const rows = await knex('tickets').join('users', 'users.id', 'tickets.user_id')
      .select('tickets.id', 'tickets.title', 'tickets.body', 'tickets.additional', 'users.first_name', 'users.last_name', 'users.email', 'users.marketplace_username')
      .where('tickets.id', '>', after).orderBy('tickets.id').limit(BATCH) as Source[]
    if (rows.length === 0) return
    const comments = await knex('comments').select('ticket_id', 'type', 'private', 'body')
      .whereIn('ticket_id', rows.map((r) => r.id)).orderBy([{ column: 'ticket_id' }, { column: 'id' }]) as CommentSource[]
    const byTicket = new Map<number, { replies: string[], publicReplies: string[], notes: string[] }>()
    for (const comment of comments) {
      const ticket = Number(comment.ticket_id)
      let lists = byTicket.get(ticket)
      if (lists === undefined) byTicket.set(ticket, lists = { replies: [], publicReplies: [], notes: [] })
      const text = words(bodyText(comment.body, COMMENT_TEXT_MAX))
      const add = (list: string[]) => { if (list.length < COMMENT_WORDS_MAX) list.push(...text.slice(0, COMMENT_WORDS_MAX - list.length)) }
      if (Number(comment.type) === 2) add(lists.notes)
      else {
        add(lists.replies)
        if (!(comment.private === true || comment.private === 1)) add(lists.publicReplies)
      }
    }
    await write(rows.map((row) => {
      const body = bodyText(row.body)
      const lists = byTicket.get(Number(row.id))
      const full = [...words([row.title, body, purchaseCodeOf(row.additional), row.first_name, row.last_name, row.email, row.marketplace_username ?? ''].join(' ')), ...lists?.replies ?? []]
      return {
        id: Number(row.id),
        full,
        public: [...words([row.title, body, row.first_name, row.last_name].join(' ')), ...lists?.publicReplies ?? []],
        staff: [...full, ...lists?.notes ?? []]
      }
    }))
    after = Number((rows.at(-1) as Source).id)
  }
}

export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('all_categories').notNullable().defaultTo(false)
  })
  if (isPostgres(knex)) {
    await knex.raw(`alter table tickets add column staff_search_document tsvector not null default ''::tsvector`)
    await backfill(knex, async (batch) => {
      await knex.raw(
        'update tickets as t set search_document = to_tsvector(\'simple\', v.f), public_search_document = to_tsvector(\'simple\', v.p), ' +
        `staff_search_document = to_tsvector('simple', v.s) from (values ${batch.map(() => '(?::integer, ?::text, ?::text, ?::text)').join(', ')}) as v(id, f, p, s) where t.id = v.id`,
        batch.flatMap((d) => [d.id, d.full.join(' '), d.public.join(' '), d.staff.join(' ')])
      )
    })
    await knex.raw('create index tickets_staff_search_document_index on tickets using gin (staff_search_document) with (fastupdate = off)')
    await knex.raw('analyze tickets')
    return
  }
  await knex.raw(`create virtual table tickets_staff_search using fts5(document, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`)
  await knex.raw('create trigger tickets_staff_search_delete after delete on tickets begin delete from tickets_staff_search where rowid = old.id; end')
  await knex.raw('create table tickets_staff_search_terms (term text primary key) without rowid')
  const tables = [['tickets_search', 'full'], ['tickets_public_search', 'public'], ['tickets_staff_search', 'staff']] as const
  await backfill(knex, async (batch) => {
    for (const [table, document] of tables) {
      await knex.raw(`insert or replace into ${table} (rowid, document) values ${batch.map(() => '(?, ?)').join(', ')}`,
        batch.flatMap((d) => [d.id, d[document].join(' ')]))
      const terms = [...new Set(batch.flatMap((d) => d[document]))]
      for (let i = 0; i < terms.length; i += BATCH) {
        const chunk = terms.slice(i, i + BATCH)
        await knex.raw(`insert or ignore into ${table}_terms (term) values ${chunk.map(() => '(?)').join(', ')}`, chunk)
      }
    }
  })
  for (const [table] of tables) await knex.raw(`insert into ${table} (${table}) values ('optimize')`)
}

export async function down (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('drop index if exists tickets_staff_search_document_index')
    await knex.raw('alter table tickets drop column if exists staff_search_document')
  } else {
    await knex.raw('drop table if exists tickets_staff_search_terms')
    await knex.raw('drop trigger if exists tickets_staff_search_delete')
    await knex.raw('drop table if exists tickets_staff_search')
  }
  // A plain DROP COLUMN: knex would rebuild `users` on SQLite, and dropping it would cascade to every ticket.
  await knex.raw('alter table users drop column all_categories')
}
