import type { Knex } from 'knex'
import {
  CommentType, SLA_DUE_FIELDS, ticketList,
  type Category, type Comment, type CommentVisibility, type ListQuery, type Page, type Ticket, type TicketRepository, type TicketScope,
  type PersonSummary, type WithIncludes
} from '@helpdesk/core'
import type { Dialect } from '../dialects/dialect.js'
import { countInclude, loadIncludes, nullsLast, parseExact, relationInclude, type IncludeLoader, type ListMapping, type SortColumn } from '../list/list-mapping.js'
import {
  commentColumns, commentFromRow, rowFromNewComment, rowFromNewTicket, rowFromTicketPatch, ticketColumns, ticketFromRow,
  type CommentRow, type TicketRow
} from '../rows/ticket-rows.js'
import { attachmentsInclude } from './attachment-repository.js'
import { satisfactionInclude } from './satisfaction-repository.js'
import { commentVisibleSql } from './comment-repository.js'
import { categoriesByIds } from './category-repository.js'
import { peopleByIds } from './customer-note-repository.js'
import { PointReads } from './point-reads.js'
import { insertId, insertMany, now, rowsByIds, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'
import { countTickets, listTickets } from './ticket-list.js'
import { UNASSIGNED } from './ticket-counts.js'
import { indexTickets, ownerContains } from './ticket-search.js'
import { setTicketTags, ticketTagsInclude, ticketTagsOf, wherePriorityIn, whereTaggedAny } from './ticket-tags.js'

type Item = WithIncludes<Ticket>

/*
 * The includes a ticket view asks for on every request, written out as SQL and run as statements
 * prepared once per connection (`dialect.run`): the same text whatever the page, so knex's query
 * builder (most of an include's cost on a single ticket) is not on the path. Same rows as the
 * builder's queries, and the visibility rule is `commentVisibleSql`, which the comment list uses too.
 */

/** The comment-visibility condition to append to a `where` (` and ...`), or nothing when the caller sees every comment. */
function andCommentVisible (visibility: CommentVisibility): { sql: string, bindings: unknown[] } {
  const visible = commentVisibleSql(visibility)
  return visible === null ? { sql: '', bindings: [] } : { sql: ` and ${visible.sql}`, bindings: visible.bindings }
}

/** `replies-count`: per ticket of the page, the replies the caller may see, in one grouped query. */
function repliesCountInclude (ctx: RepositoryContext, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = [...new Set(items.map((i) => i.id))]
    const list = ctx.dialect.inIds('comments.ticket_id', ids)
    const visible = andCommentVisible(scope.comments)
    const rows = await ctx.dialect.run<{ owner: number, n: number | string }>(db,
      `select comments.ticket_id as owner, count(*) as n from comments where ${list.sql} and comments.type = ?${visible.sql} group by comments.ticket_id`,
      [...list.bindings, CommentType.Reply, ...visible.bindings])
    const counts = new Map(rows.map((r) => [Number(r.owner), Number(r.n)]))
    for (const item of items) item[key] = counts.get(item.id) ?? 0
  }
}

const RANKED_COMMENT_COLUMNS = commentColumns.join(', ')

/** `last_reply`: per ticket of the page, the newest comment the caller may see, in one windowed query. */
function lastReplyInclude (ctx: RepositoryContext, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const list = ctx.dialect.inIds('comments.ticket_id', items.map((i) => i.id))
    const visible = andCommentVisible(scope.comments)
    const rows = await ctx.dialect.run<CommentRow & { position: number }>(db,
      `select * from (select ${RANKED_COMMENT_COLUMNS}, row_number() over (partition by comments.ticket_id order by comments.created_at desc, comments.id desc) as position ` +
      `from comments where ${list.sql}${visible.sql}) as ranked where ranked.position = 1`,
      [...list.bindings, ...visible.bindings])
    const byTicket = new Map<number, Comment>(rows.map((row) => [row.ticket_id, commentFromRow(row)]))
    for (const item of items) item[key] = byTicket.get(item.id) ?? null
  }
}

/** `last_read_by_me`: when the caller last opened each ticket, or null. */
function lastReadInclude (ctx: RepositoryContext, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const list = ctx.dialect.inIds('ticket_reads.ticket_id', items.map((i) => i.id))
    const rows = await ctx.dialect.run<{ ticket_id: number, read_at: string }>(db,
      `select ticket_reads.ticket_id, ticket_reads.read_at from ticket_reads where ticket_reads.user_id = ? and ${list.sql}`,
      [scope.viewerId, ...list.bindings])
    const byTicket = new Map(rows.map((r) => [r.ticket_id, r.read_at]))
    for (const item of items) item[key] = byTicket.get(item.id) ?? null
  }
}

// Nulls (no due time) after every time, on both databases.
const slaDueSorts = Object.fromEntries(SLA_DUE_FIELDS.map((f) => [f, nullsLast(`tickets.${f}`)])) as Record<typeof SLA_DUE_FIELDS[number], SortColumn>
const slaDueSince = Object.fromEntries(SLA_DUE_FIELDS.map((f) => [`${f}[gte]`, `tickets.${f}`]))
const slaDueBefore = Object.fromEntries(SLA_DUE_FIELDS.map((f) => [`${f}[lt]`, `tickets.${f}`]))

/** The list mapping for one caller: some includes and the search depend on who asks. */
function ticketMapping (ctx: RepositoryContext, scope: TicketScope): ListMapping<typeof ticketList, TicketRow, Item> {
  const { db } = ctx
  return {
    spec: ticketList,
    sorts: {
      id: 'tickets.id',
      title: 'tickets.title',
      status: 'tickets.status',
      private: 'tickets.private',
      updated_at: 'tickets.updated_at',
      created_at: 'tickets.created_at',
      priority: 'tickets.priority',
      ...slaDueSorts
    },
    partial: {
      first_name: ownerContains(db, 'first_name'),
      last_name: ownerContains(db, 'last_name'),
      email: ownerContains(db, 'email', 'ownerOrPublic' in scope.tickets ? scope.tickets.ownerOrPublic : undefined),
      search: () => { throw new Error('filter[search] is planned by listTickets, never applied as a plain filter') }
    },
    exact: {
      status: { column: 'tickets.status', type: 'int' },
      categories: { column: 'tickets.category_id', type: 'int' },
      // `0` is "unassigned" (the counts store an unassigned ticket's agent as 0 too).
      agents: (qb, values) => {
        const ids = parseExact('agents', 'int', values) as number[]
        const agents = ids.filter((id) => id > 0)
        void qb.where((w) => {
          if (agents.length > 0) void w.whereIn('tickets.assigned_agent_id', agents)
          if (ids.includes(UNASSIGNED)) void w.orWhereNull('tickets.assigned_agent_id')
          if (agents.length === 0 && !ids.includes(UNASSIGNED)) void w.whereRaw('1 = 0')
        })
      },
      priority: wherePriorityIn,
      tags: whereTaggedAny,
      // `0`: not merged into another ticket; `1`: merged (both: any).
      merged: (qb, values) => {
        const flags = new Set(parseExact('merged', 'bool', values))
        if (flags.size === 1) void (flags.has(true) ? qb.whereNotNull('tickets.merged_into_id') : qb.whereNull('tickets.merged_into_id'))
      }
    },
    includes: {
      user: relationInclude<Item, PersonSummary>('user_id', peopleByIds),
      creator: relationInclude<Item, PersonSummary>('creator_id', peopleByIds),
      agent: relationInclude<Item, PersonSummary>('assigned_agent_id', peopleByIds),
      category: relationInclude<Item, Category>('category_id', categoriesByIds),
      attachments: attachmentsInclude<Item>('ticket_id'),
      'attachments-count': countInclude<Item>('attachments', 'ticket_id', (qb) => { void qb.whereNull('comment_id') }),
      'replies-count': repliesCountInclude(ctx, scope),
      last_reply: lastReplyInclude(ctx, scope),
      last_read_by_me: lastReadInclude(ctx, scope),
      satisfaction: satisfactionInclude(ctx, scope),
      tags: ticketTagsInclude
    },
    since: { updated_since: 'tickets.updated_at', ...slaDueSince },
    before: slaDueBefore,
    idColumn: 'tickets.id',
    map: (row) => ticketFromRow(row) as Item
  }
}

/** Behind every ticket view, comment and update: a prepared statement. */
const FIND_TICKET_BY_ID = `select ${ticketColumns.join(', ')} from tickets where tickets.id = ?`

/**
 * The ticket reads of the pool (not of a transaction) gathered per turn where a statement is a
 * round trip (`statementsAreRoundTrips`): one prepared statement for a turn's ticket views.
 */

/** The columns a Ticket is built from, as `returning` names them. */
const RETURNED_TICKET_COLUMNS = ticketColumns.map((column) => column.slice('tickets.'.length))
export function ticketReadsById (db: Knex, dialect: Dialect): PointReads<TicketRow> | undefined {
  if (!dialect.statementsAreRoundTrips) return undefined
  return new PointReads(async (ids) => await rowsByIds<TicketRow>(db, 'tickets', ticketColumns, ids), (row) => row.id)
}

/** Ticket fields the search document is built from: a patch touching none of them leaves it as is. */
const searchedFields = ['title', 'body', 'additional']

/** A new ticket's row with its status anchor (migration 0038): the status was set when it was created. */
function withStatusChangedAt<T extends { created_at: string }> (row: T): T & { status_changed_at: string } {
  return { ...row, status_changed_at: row.created_at }
}

export function createTicketRepository (ctx: RepositoryContext): TicketRepository {
  const { db, dialect } = ctx
  return {
    async findById (id) {
      const row = ctx.ticketsById !== undefined ? await ctx.ticketsById.get(id) : (await dialect.run<TicketRow>(db, FIND_TICKET_BY_ID, [id]))[0] ?? null
      return row === null ? null : ticketFromRow(row)
    },
    async findByIds (ids) {
      if (ids.length === 0) return []
      return (await rowsByIds<TicketRow>(db, 'tickets', ticketColumns, ids)).map(ticketFromRow)
    },
    async create (ticket) {
      const row = rowFromNewTicket(ticket, now(ctx))
      const id = await insertId(db('tickets').insert({ ...row, status_changed_at: row.created_at }))
      await indexTickets(db, dialect, [id])
      return ticketFromRow({ id, ...row })
    },
    async createMany (list, comments = []) {
      const at = now(ctx)
      const ids = await insertMany(db, 'tickets', list.map((t) => withStatusChangedAt(rowFromNewTicket(t, at))), 200)
      if (comments.length > 0) {
        await insertMany(db, 'comments', comments.map(({ ticket, comment }) => rowFromNewComment({ ...comment, ticket_id: ids[ticket]! }, at)), 200)
      }
      await indexTickets(db, dialect, ids)
      return ids
    },
    async update (id, patch) {
      const at = now(ctx)
      const row: Record<string, unknown> = rowFromTicketPatch(patch, at)
      // The anchor of "pending for N days" (automations): moves only when the status really changes.
      if (patch.status !== undefined) row.status_changed_at = db.raw('case when status = ? then status_changed_at else ? end', [patch.status, at])
      // The row as written comes back with the update (one statement, not an update and a read).
      const rows = await db('tickets').where('id', id).update(row, RETURNED_TICKET_COLUMNS) as TicketRow[]
      const written = rows[0]
      if (written === undefined) return null
      if (searchedFields.some((field) => field in patch)) await indexTickets(db, dialect, [id])
      return ticketFromRow(written)
    },
    async delete (id) {
      return await db('tickets').where('id', id).delete() > 0
    },
    async list (scope, query: ListQuery): Promise<Page<Item>> {
      return await listTickets(ctx, scope, query, ticketMapping(ctx, scope))
    },
    async count (scope, query) {
      const [counted] = await countTickets(ctx, scope, [query], ticketMapping(ctx, scope))
      return counted as { total: number, lowerBound: boolean }
    },
    async countMany (scope, queries) {
      return await countTickets(ctx, scope, queries, ticketMapping(ctx, scope))
    },
    async withIncludes (ticket, scope, query) {
      const item = { ...ticket } as Item
      // A plain view (the commonest) skips building the list mapping: a few dozen closures per request.
      if (query.include.length === 0) return item
      await loadIncludes(db, ticketMapping(ctx, scope) as ListMapping<typeof ticketList, unknown, Item>, [item], query)
      return item
    },
    async markRead (ticketId, userId, at) {
      await ctx.readMarks.add(ticketId, userId, at)
    },
    async existingIds (ids) {
      return await tableRows(ctx, 'tickets').existingIds(ids)
    },
    async setTags (ticketId, names) {
      return await setTicketTags(db, ticketId, names)
    },
    async tagsOf (ticketIds) {
      return await ticketTagsOf(db, ticketIds)
    }
  }
}
