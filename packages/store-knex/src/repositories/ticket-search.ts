import type { Knex } from 'knex'
import { plainText, type TicketAdditional } from '@helpdesk/core'
import { containsPattern, type Dialect } from '../dialects/dialect.js'
import { batches, documentWords, fullTextQuery, type FullTextIndex } from '../dialects/full-text.js'
import type { PartialFilter } from '../list/list-mapping.js'
import { parseJson } from '../rows/row-values.js'

/**
 * Tickets' full-text search (`filter[search]`): a ticket matches when the
 * search is its id, when its document (title, body text, purchase code, and
 * its owner's first and last name, email and marketplace username) has every
 * term (the last word of each as a prefix), or when the search is a substring
 * of one of those owner fields (trigram indexes on PostgreSQL). The document
 * is rewritten in the transaction of every change to what it holds.
 */
export const ticketSearchIndex: FullTextIndex = { table: 'tickets' }

/** The owner's fields in the document, also matched as substrings. */
export const ownerSearchColumns = ['first_name', 'last_name', 'email', 'marketplace_username'] as const

interface DocumentSource {
  id: number
  title: string
  body: string
  additional: string
  first_name: string
  last_name: string
  email: string
  marketplace_username: string | null
}

/** Ticket bodies are indexed whole, as plain text. */
const BODY_TEXT_MAX = 1_000_000

function documentOf (row: DocumentSource): string[] {
  const additional = parseJson<TicketAdditional>(row.additional, {})
  return documentWords([
    row.title,
    plainText(row.body, BODY_TEXT_MAX),
    typeof additional.purchase_code === 'string' ? additional.purchase_code : '',
    row.first_name,
    row.last_name,
    row.email,
    row.marketplace_username ?? ''
  ].join(' '))
}

/** Rebuilds the search documents of these tickets: one read and one write per batch. */
export async function indexTickets (db: Knex, dialect: Dialect, ids: readonly number[]): Promise<void> {
  for (const batch of batches(ids)) {
    const rows = await db('tickets')
      .join('users', 'users.id', 'tickets.user_id')
      .select('tickets.id', 'tickets.title', 'tickets.body', 'tickets.additional',
        ...ownerSearchColumns.map((c) => `users.${c}`))
      .whereIn('tickets.id', batch) as DocumentSource[]
    await dialect.fullText.write(db, ticketSearchIndex, rows.map((row) => ({ id: row.id, words: documentOf(row) })))
  }
}

/**
 * The user repository's hook: after a user's names, email or marketplace
 * username change, the documents of the tickets they own are rebuilt.
 */
export async function reindexTicketsOfOwner (db: Knex, dialect: Dialect, userId: number, patch: object): Promise<void> {
  if (!ownerSearchColumns.some((column) => column in patch)) return
  const rows = await db('tickets').select('id').where('user_id', userId) as Array<{ id: number }>
  await indexTickets(db, dialect, rows.map((r) => r.id))
}

/** Ids of users with `value` in one of the owner fields (case-insensitive substring). */
function ownersMatching (db: Knex, dialect: Dialect, value: string, columns: readonly string[]): Knex.QueryBuilder {
  const pattern = containsPattern(value)
  return db('users').select('users.id').where((w) => {
    for (const column of columns) void w.orWhere((one) => { dialect.whereContains(one, `users.${column}`, pattern) })
  })
}

/** `filter[first_name]` and the like: the ticket's owner has `value` in `column`. */
export function ownerContains (db: Knex, column: typeof ownerSearchColumns[number]): PartialFilter {
  return (qb, value, dialect) => { void qb.whereIn('tickets.user_id', ownersMatching(db, dialect, value, [column])) }
}

/** `filter[search]`, see above. */
export function ticketSearch (db: Knex): PartialFilter {
  return (qb, value, dialect) => {
    const text = value.trim()
    const id = /^#?(\d{1,9})$/.exec(text)?.[1]
    const query = fullTextQuery(text)
    // One set of ids, each part read from an index, so the planner never scans tickets to test an OR.
    const owned = db('tickets').select('tickets.id').whereIn('tickets.user_id', ownersMatching(db, dialect, text, ownerSearchColumns))
    const parts = [
      ...(query.length > 0 ? [dialect.fullText.matchingIds(db, ticketSearchIndex, query)] : []),
      ...(id !== undefined ? [db('tickets').select('tickets.id').where('tickets.id', Number(id))] : [])
    ]
    void qb.whereIn('tickets.id', owned.union(parts))
  }
}
