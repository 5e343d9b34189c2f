import type { Knex } from 'knex'
import { CommentType, plainText, type TicketAdditional, type TicketVisibility } from '@helpdesk/core'
import { containsPattern, type Dialect } from '../dialects/dialect.js'
import { batches, documentWords, fullTextQuery, type FullTextIndex } from '../dialects/full-text.js'
import { rawRows } from '../dialects/raw-rows.js'
import { limitTo, type PartialFilter } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'

/**
 * Tickets' full-text search (`filter[search]`): a ticket matches when the
 * search is its id, when its document (title, body text, purchase code, its
 * owner's first and last name, email and marketplace username, and its
 * replies; staff's document also its internal notes) has every
 * term (the last word of each as a prefix), or when the search (three
 * characters or more) is a substring of one of those owner fields.
 *
 * The purchase code, email and marketplace username may match only for staff
 * and the ticket's owner (CONTRACT §17): a customer searching another
 * customer's public ticket matches a second, public document (title, body
 * text, owner's names, public replies) and the owner's names only. The
 * documents are rewritten in the transaction of every change to what they
 * hold (a comment's too).
 */
export const ticketSearchIndex: FullTextIndex = { table: 'tickets' }
/** The document without the owner-only fields. */
export const ticketPublicSearchIndex: FullTextIndex = { table: 'tickets', document: 'public' }
/** Staff's document: the full one and the internal notes (migration 0027). */
export const ticketStaffSearchIndex: FullTextIndex = { table: 'tickets', document: 'staff' }

/** The owner's fields in the document, also matched as substrings. */
export const ownerSearchColumns = ['first_name', 'last_name', 'email', 'marketplace_username'] as const
/** The owner's fields anyone who sees the ticket may match. */
export const publicOwnerSearchColumns = ['first_name', 'last_name'] as const
/** The owner's fields only staff and the owner may match. */
const ownerOnlySearchColumns = ['email', 'marketplace_username'] as const

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
/** A comment's text indexed (a very long thread stays within what a document may hold). */
const COMMENT_TEXT_MAX = 100_000
/** The words of a ticket's comments, per document, at most (the first ones). */
const COMMENT_WORDS_MAX = 100_000

/** A ticket's comments as its documents hold them: replies (public and private), public replies, notes. */
interface CommentWords { replies: string[], publicReplies: string[], notes: string[] }

/**
 * The documents of a ticket (issue 35: with its comments):
 * - full (staff and, on their own tickets, the owner): title, body, purchase code, owner, and every reply;
 * - public (customers, on public tickets): title, body, owner's names, and the public replies;
 * - staff: the full document and the internal notes.
 */
function documentsOf (row: DocumentSource, comments: CommentWords | undefined): { full: string[], public: string[], staff: string[] } {
  const additional = parseJson<TicketAdditional>(row.additional, {})
  const purchaseCode = typeof additional.purchase_code === 'string' ? additional.purchase_code : ''
  const body = plainText(row.body, BODY_TEXT_MAX)
  const full = [...documentWords([row.title, body, purchaseCode, row.first_name, row.last_name, row.email, row.marketplace_username ?? ''].join(' ')), ...comments?.replies ?? []]
  return {
    full,
    public: [...documentWords([row.title, body, row.first_name, row.last_name].join(' ')), ...comments?.publicReplies ?? []],
    staff: [...full, ...comments?.notes ?? []]
  }
}

/** The comments' words of these tickets, in the order written: one read. */
async function commentWordsOf (db: Knex, ids: readonly number[]): Promise<Map<number, CommentWords>> {
  const rows = await db('comments').select('ticket_id', 'type', 'private', 'body')
    .whereIn('ticket_id', ids).orderBy([{ column: 'ticket_id' }, { column: 'id' }]) as Array<{ ticket_id: number, type: number, private: number | boolean, body: string }>
  const byTicket = new Map<number, CommentWords>()
  for (const row of rows) {
    const ticket = Number(row.ticket_id)
    let words = byTicket.get(ticket)
    if (words === undefined) byTicket.set(ticket, words = { replies: [], publicReplies: [], notes: [] })
    const text = documentWords(plainText(row.body, COMMENT_TEXT_MAX))
    const add = (list: string[]) => { if (list.length < COMMENT_WORDS_MAX) list.push(...text.slice(0, COMMENT_WORDS_MAX - list.length)) }
    if (row.type === CommentType.Note) add(words.notes)
    else {
      add(words.replies)
      if (!bool(row.private)) add(words.publicReplies)
    }
  }
  return byTicket
}

/** Rebuilds the three search documents of these tickets: two reads and one write per batch (three on SQLite, one per index). */
export async function indexTickets (db: Knex, dialect: Dialect, ids: readonly number[]): Promise<void> {
  for (const batch of batches(ids)) {
    const [rows, comments] = await Promise.all([
      db('tickets')
        .join('users', 'users.id', 'tickets.user_id')
        .select('tickets.id', 'tickets.title', 'tickets.body', 'tickets.additional',
          ...ownerSearchColumns.map((c) => `users.${c}`))
        .whereIn('tickets.id', batch) as Promise<DocumentSource[]>,
      commentWordsOf(db, batch)
    ])
    await dialect.fullText.write(db, [ticketSearchIndex, ticketPublicSearchIndex, ticketStaffSearchIndex], rows.map((row) => {
      const documents = documentsOf(row, comments.get(Number(row.id)))
      return { id: row.id, words: [documents.full, documents.public, documents.staff] }
    }))
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
 * for one (else by scanning the users). For an owner-only column and a
 * customer (`viewerId`), only the viewer's own tickets can match.
 */
export function ownerContains (db: Knex, column: typeof ownerSearchColumns[number], viewerId?: number): PartialFilter {
  return (qb, value, dialect) => {
    if (viewerId !== undefined && (ownerOnlySearchColumns as readonly string[]).includes(column)) void qb.where('tickets.user_id', viewerId)
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

/** Whether the customer's own email or marketplace username has `value` in it (case-insensitive): one read by primary key. */
async function viewerHas (db: Knex, viewer: number, value: string): Promise<boolean> {
  const row = await db('users').select(...ownerOnlySearchColumns).where('id', viewer).first() as Record<typeof ownerOnlySearchColumns[number], string | null> | undefined
  const needle = value.toLowerCase()
  return row !== undefined && ownerOnlySearchColumns.some((column) => (row[column] ?? '').toLowerCase().includes(needle))
}

/**
 * The ids each query (`select id ...`, or none) reads, read with one statement: the queries joined
 * by `union all`, each row tagged with its query's position.
 */
async function idsInOneStatement<const Q extends ReadonlyArray<Knex.QueryBuilder | null>> (db: Knex, queries: Q): Promise<{ [K in keyof Q]: Array<{ id: number }> }> {
  const lists = queries.map((): Array<{ id: number }> => []) as { [K in keyof Q]: Array<{ id: number }> } & Array<Array<{ id: number }>>
  const parts = queries.flatMap((query, i) => {
    if (query === null) return []
    const { sql, bindings } = query.toSQL()
    return [{ sql: `select ${i} as part, id from (${sql}) as part${i}`, bindings }]
  })
  if (parts.length === 0) return lists
  const result = await db.raw(parts.map((part) => part.sql).join(' union all '), parts.flatMap((part) => [...part.bindings]))
  for (const row of rawRows<{ part: number, id: number }>(result)) lists[row.part]?.push({ id: row.id })
  return lists
}

/**
 * Plans `filter[search]=text` on `listed` (a query of the tickets the list
 * may show to a caller of `visibility`): a few reads of at most LIMIT + 1 ids
 * each, driven by the indexes (full text, owners' substrings, then those
 * owners' tickets). For a customer the documents are read in two branches:
 * the full document on their own tickets, the public one on public tickets.
 */
export async function planTicketSearch (db: Knex, dialect: Dialect, text: string, listed: Knex.QueryBuilder, visibility: TicketVisibility): Promise<TicketSearchPlan> {
  const { fullText } = dialect
  const search = text.trim()
  const id = /^#?(\d{1,9})$/.exec(search)?.[1]
  const phrases = fullTextQuery(search)
  const viewer = 'ownerOrPublic' in visibility ? visibility.ownerOrPublic : null
  // Staff search their document (replies and notes); a customer the full one on their own tickets (replies, no notes).
  const ownIndex = viewer === null ? ticketStaffSearchIndex : ticketSearchIndex
  const [compiled, compiledPublic] = phrases.length === 0
    ? [null, null]
    : await Promise.all([
      fullText.compile(db, ownIndex, phrases),
      viewer === null ? null : fullText.compile(db, ticketPublicSearchIndex, phrases)
    ])
  const owner = [...search].length >= fullText.substringMinLength ? search : null
  const over = SEARCH_COUNT_LIMIT + 1
  const listedIds = (): Knex.QueryBuilder => limitTo(listed.clone().clearSelect().clearOrder().select('tickets.id'), over)
  const matchingIds = (index: FullTextIndex, query: string | null, branch?: (qb: Knex.QueryBuilder) => void): Knex.QueryBuilder | null => {
    if (query === null) return null
    const documents = listedIds()
    branch?.(documents)
    fullText.restrictToMatches(documents, index, query, 'tickets.id')
    return documents
  }
  const nameColumns = viewer === null ? ownerSearchColumns : publicOwnerSearchColumns
  const ownDocuments = matchingIds(ownIndex, compiled, viewer === null ? undefined : (qb) => { void qb.where('tickets.user_id', viewer) })
  const publicDocuments = viewer === null ? null : matchingIds(ticketPublicSearchIndex, compiledPublic, (qb) => { void qb.where('tickets.private', false) })

  // Independent reads: one statement where each would be a round trip (PostgreSQL), else each on its own.
  const [[ownDocumentIds, publicDocumentIds, ownerIds], viewerMatches] = await Promise.all([
    dialect.statementsAreRoundTrips
      ? idsInOneStatement(db, [ownDocuments, publicDocuments, owner === null ? null : fullText.substringMatchingIds(db, 'users', nameColumns, owner, over)])
      : Promise.all([
        ownDocuments ?? [],
        publicDocuments ?? [],
        owner === null ? [] : fullText.readSubstringMatchingIds(db, 'users', nameColumns, owner, over)
      ] as const),
    owner === null || viewer === null
      ? false
      : viewerHas(db, viewer, owner)
  ])
  // A customer's own email or marketplace username matches their own tickets.
  const ownerIdList = ownerIds.map((o) => Number(o.id))
  if (viewerMatches && viewer !== null && !ownerIdList.includes(viewer)) ownerIdList.push(viewer)
  const ownedIds = ownerIdList.length === 0 ? [] : await (() => {
    const owned = listedIds()
    if (ownerIdList.length <= SEARCH_COUNT_LIMIT) dialect.whereIdIn(owned, 'tickets.user_id', ownerIdList)
    else {
      void owned.where((w) => {
        void w.whereIn('tickets.user_id', fullText.substringMatchingIds(db, 'users', nameColumns, owner as string))
        if (viewerMatches) void w.orWhere('tickets.user_id', viewer)
      })
    }
    return owned
  })() as Array<{ id: number }>

  // A customer's two branches are one way of matching: together at most LIMIT, or the search is common.
  const documentIds = new Set([...ownDocumentIds, ...publicDocumentIds].map((row) => Number(row.id)))
  if (documentIds.size <= SEARCH_COUNT_LIMIT && ownedIds.length <= SEARCH_COUNT_LIMIT) {
    const ids = new Set([...documentIds, ...ownedIds.map((row) => Number(row.id))])
    if (id !== undefined) ids.add(Number(id))
    return ids.size === 0 ? { kind: 'none' } : { kind: 'selective', ids: [...ids] }
  }
  return {
    kind: 'common',
    matches: (qb) => {
      void qb.where((w) => {
        if (viewer === null) {
          if (compiled !== null) void w.orWhere(fullText.rowMatches(db, ticketStaffSearchIndex, compiled, 'tickets.id'))
        } else {
          if (compiled !== null) void w.orWhere((own) => { void own.where('tickets.user_id', viewer).andWhere(fullText.rowMatches(db, ticketSearchIndex, compiled, 'tickets.id')) })
          if (compiledPublic !== null) void w.orWhere((open) => { void open.where('tickets.private', false).andWhere(fullText.rowMatches(db, ticketPublicSearchIndex, compiledPublic, 'tickets.id')) })
        }
        if (owner !== null && ownerIds.length > 0) void w.orWhere(fullText.substringRowMatches(db, 'users', nameColumns, owner, 'tickets.user_id'))
        if (viewerMatches) void w.orWhere('tickets.user_id', viewer)
        if (id !== undefined) void w.orWhere('tickets.id', Number(id))
      })
    }
  }
}
