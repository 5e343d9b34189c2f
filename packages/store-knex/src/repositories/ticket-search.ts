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
 * term (the last word of each as a prefix), or when the search (three
 * characters or more) is a substring of one of those owner fields. The
 * document is rewritten in the transaction of every change to what it holds.
 */
export const ticketSearchIndex: FullTextIndex = { table: 'tickets' }

/** The owner's fields in the document, also matched as substrings. */
export const ownerSearchColumns = ['first_name', 'last_name', 'email', 'marketplace_username'] as const

/**
 * Matches counted exactly, at most: past this many, a search is "common" and
 * its total is reported as a lower bound (what keeps a search for a word in a
 * third of a million tickets as fast as one for a rare word).
 */
export const SEARCH_COUNT_LIMIT = 1000

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

/**
 * `filter[first_name]` and the like: the ticket's owner has `value` in
 * `column`, found through the substring index when `value` is long enough
 * for one (else by scanning the users).
 */
export function ownerContains (db: Knex, column: typeof ownerSearchColumns[number]): PartialFilter {
  return (qb, value, dialect) => {
    if ([...value].length >= dialect.fullText.substringMinLength) {
      void qb.whereIn('tickets.user_id', dialect.fullText.substringMatchingIds(db, 'users', [column], value))
      return
    }
    const pattern = containsPattern(value)
    void qb.whereIn('tickets.user_id', db('users').select('users.id').where((w) => { dialect.whereContains(w, `users.${column}`, pattern) }))
  }
}

/**
 * How a search is answered, given the list's query (visibility and filters
 * applied). Selective: at most SEARCH_COUNT_LIMIT tickets of that query match
 * each way of matching, so the list is just those ids (exact total, any
 * sort, sorted in memory). Common: more match; a scan in the sort's order
 * tests each ticket (`matches`) and stops at the page's end, and the total
 * is the limit, a lower bound.
 */
export type TicketSearchPlan =
  | { kind: 'none' }
  | { kind: 'selective', ids: number[] }
  | { kind: 'common', matches: (qb: Knex.QueryBuilder) => void }

/**
 * Plans `filter[search]=text` on `listed` (a query of the tickets the list
 * may show): up to three reads of at most LIMIT + 1 ids each, driven by the
 * indexes (full text, owners' substrings, then those owners' tickets).
 */
export async function planTicketSearch (db: Knex, dialect: Dialect, text: string, listed: Knex.QueryBuilder): Promise<TicketSearchPlan> {
  const { fullText } = dialect
  const search = text.trim()
  const id = /^#?(\d{1,9})$/.exec(search)?.[1]
  const phrases = fullTextQuery(search)
  const compiled = phrases.length > 0 ? await fullText.compile(db, ticketSearchIndex, phrases) : null
  const owner = [...search].length >= fullText.substringMinLength ? search : null
  const over = SEARCH_COUNT_LIMIT + 1
  const listedIds = (): Knex.QueryBuilder => listed.clone().clearSelect().clearOrder().select('tickets.id').limit(over)

  // Independent reads: concurrent where the database serves several at once (PostgreSQL's pool).
  const [documentIds, ownerIds] = await Promise.all([
    compiled === null ? [] : (() => {
      const documents = listedIds()
      fullText.restrictToMatches(documents, ticketSearchIndex, compiled, 'tickets.id')
      return documents as Promise<Array<{ id: number }>>
    })(),
    owner === null ? [] : fullText.substringMatchingIds(db, 'users', ownerSearchColumns, owner, over) as Promise<Array<{ id: number }>>
  ])
  const ownedIds = ownerIds.length === 0 ? [] : await (() => {
    const owned = listedIds()
    if (ownerIds.length <= SEARCH_COUNT_LIMIT) dialect.whereIdIn(owned, 'tickets.user_id', ownerIds.map((o) => o.id))
    else void owned.whereIn('tickets.user_id', fullText.substringMatchingIds(db, 'users', ownerSearchColumns, owner as string))
    return owned
  })() as Array<{ id: number }>

  if (documentIds.length <= SEARCH_COUNT_LIMIT && ownedIds.length <= SEARCH_COUNT_LIMIT) {
    const ids = new Set([...documentIds, ...ownedIds].map((row) => Number(row.id)))
    if (id !== undefined) ids.add(Number(id))
    return ids.size === 0 ? { kind: 'none' } : { kind: 'selective', ids: [...ids] }
  }
  return {
    kind: 'common',
    matches: (qb) => {
      void qb.where((w) => {
        if (compiled !== null) void w.orWhere(fullText.rowMatches(db, ticketSearchIndex, compiled, 'tickets.id'))
        if (owner !== null && ownerIds.length > 0) void w.orWhere(fullText.substringRowMatches(db, 'users', ownerSearchColumns, owner, 'tickets.user_id'))
        if (id !== undefined) void w.orWhere('tickets.id', Number(id))
      })
    }
  }
}
