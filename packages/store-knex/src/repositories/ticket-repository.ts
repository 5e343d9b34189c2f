import type { Knex } from 'knex'
import {
  CommentType, ticketList,
  type Category, type Comment, type ListQuery, type Page, type Ticket, type TicketRepository, type TicketScope,
  type User, type WithIncludes
} from '@helpdesk/core'
import { countInclude, loadIncludes, parseExact, relationInclude, type IncludeLoader, type ListMapping } from '../list/list-mapping.js'
import {
  commentColumns, commentFromRow, rowFromNewTicket, rowFromTicketPatch, ticketColumns, ticketFromRow,
  type CommentRow, type TicketRow
} from '../rows/ticket-rows.js'
import type { Dialect } from '../dialects/dialect.js'
import { attachmentsInclude } from './attachment-repository.js'
import { categoriesByIds } from './category-repository.js'
import { whereCommentVisible } from './comment-repository.js'
import { usersByIds } from './customer-note-repository.js'
import { insertId, insertMany, now, type RepositoryContext } from './repository-context.js'
import { listTickets } from './ticket-list.js'
import { UNASSIGNED } from './ticket-counts.js'
import { indexTickets, ownerContains } from './ticket-search.js'

type Item = WithIncludes<Ticket>

/** `last_reply`: per ticket of the page, the newest comment the caller may see, in one windowed query. */
function lastReplyInclude (scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ranked = db('comments')
      .select(commentColumns)
      .select(db.raw('row_number() over (partition by comments.ticket_id order by comments.created_at desc, comments.id desc) as position'))
      .whereIn('comments.ticket_id', items.map((i) => i.id))
    whereCommentVisible(db, ranked, scope.comments)
    const rows = await db.select('*').from(ranked.as('ranked')).where('ranked.position', 1) as Array<CommentRow & { position: number }>
    const byTicket = new Map<number, Comment>(rows.map((row) => [row.ticket_id, commentFromRow(row)]))
    for (const item of items) item[key] = byTicket.get(item.id) ?? null
  }
}

/** `last_read_by_me`: when the caller last opened each ticket, or null (a prepared statement: the inbox reads it for every page). */
function lastReadInclude (dialect: Dialect, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = dialect.inIds('"ticket_reads"."ticket_id"', items.map((i) => i.id))
    const rows = await dialect.run<{ ticket_id: number, read_at: string }>(db,
      `select "ticket_id", "read_at" from "ticket_reads" where "ticket_reads"."user_id" = ? and ${ids.sql}`, [scope.viewerId, ...ids.bindings])
    const byTicket = new Map(rows.map((r) => [r.ticket_id, r.read_at]))
    for (const item of items) item[key] = byTicket.get(item.id) ?? null
  }
}

/**
 * `replies-count`: the replies the caller may see, per ticket of the page, as
 * a prepared statement (what `whereCommentVisible` says, written out: a
 * customer counts public replies, and every reply of their own tickets).
 */
function repliesCountInclude (dialect: Dialect, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = dialect.inIds('"comments"."ticket_id"', [...new Set(items.map((i) => i.id))])
    const visible = 'all' in scope.comments
      ? { sql: '', bindings: [] }
      : { sql: ' and ("comments"."private" = ? or "comments"."ticket_id" in (select "tickets"."id" from "tickets" where "tickets"."user_id" = ?))', bindings: [false, scope.comments.repliesFor] }
    const rows = await dialect.run<{ owner: number | string, n: number | string }>(db,
      `select "comments"."ticket_id" as "owner", count(*) as "n" from "comments" where ${ids.sql} and "comments"."type" = ?${visible.sql} group by "comments"."ticket_id"`,
      [...ids.bindings, CommentType.Reply, ...visible.bindings])
    const counts = new Map(rows.map((r) => [Number(r.owner), Number(r.n)]))
    for (const item of items) item[key] = counts.get(item.id) ?? 0
  }
}

/** The list mapping for one caller: some includes and the search depend on who asks. */
function ticketMapping (db: Knex, dialect: Dialect, scope: TicketScope): ListMapping<typeof ticketList, TicketRow, Item> {
  return {
    spec: ticketList,
    sorts: {
      id: 'tickets.id',
      title: 'tickets.title',
      status: 'tickets.status',
      private: 'tickets.private',
      updated_at: 'tickets.updated_at',
      created_at: 'tickets.created_at'
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
      }
    },
    includes: {
      user: relationInclude<Item, User>('user_id', usersByIds),
      creator: relationInclude<Item, User>('creator_id', usersByIds),
      agent: relationInclude<Item, User>('assigned_agent_id', usersByIds),
      category: relationInclude<Item, Category>('category_id', categoriesByIds),
      attachments: attachmentsInclude<Item>('ticket_id'),
      'attachments-count': countInclude<Item>('attachments', 'ticket_id', (qb) => { void qb.whereNull('comment_id') }),
      'replies-count': repliesCountInclude(dialect, scope),
      last_reply: lastReplyInclude(scope),
      last_read_by_me: lastReadInclude(dialect, scope)
    },
    since: { updated_since: 'tickets.updated_at' },
    idColumn: 'tickets.id',
    map: (row) => ticketFromRow(row) as Item
  }
}

/** Behind every ticket view, comment and update: a prepared statement. */
const FIND_TICKET_BY_ID = `select ${ticketColumns.join(', ')} from tickets where tickets.id = ?`

/** Ticket fields the search document is built from: a patch touching none of them leaves it as is. */
const searchedFields = ['title', 'body', 'additional']

export function createTicketRepository (ctx: RepositoryContext): TicketRepository {
  const { db, dialect } = ctx
  return {
    async findById (id) {
      const [row] = await dialect.run<TicketRow>(db, FIND_TICKET_BY_ID, [id])
      return row === undefined ? null : ticketFromRow(row)
    },
    async create (ticket) {
      const row = rowFromNewTicket(ticket, now(ctx))
      const id = await insertId(db('tickets').insert(row))
      await indexTickets(db, dialect, [id])
      return ticketFromRow({ id, ...row })
    },
    async createMany (list) {
      const at = now(ctx)
      const ids = await insertMany(db, 'tickets', list.map((t) => rowFromNewTicket(t, at)), 200)
      await indexTickets(db, dialect, ids)
      return ids
    },
    async update (id, patch) {
      const count = await db('tickets').where('id', id).update(rowFromTicketPatch(patch, now(ctx)))
      if (count === 0) return null
      if (searchedFields.some((field) => field in patch)) await indexTickets(db, dialect, [id])
      return await this.findById(id)
    },
    async delete (id) {
      return await db('tickets').where('id', id).delete() > 0
    },
    async list (scope, query: ListQuery): Promise<Page<Item>> {
      return await listTickets(ctx, scope, query, ticketMapping(db, dialect, scope))
    },
    async withIncludes (ticket, scope, query) {
      const item = { ...ticket } as Item
      await loadIncludes(db, ticketMapping(db, dialect, scope) as ListMapping<typeof ticketList, unknown, Item>, [item], query)
      return item
    },
    async markRead (ticketId, userId, at) {
      await ctx.readMarks.add(ticketId, userId, at)
    },
    async existingIds (ids) {
      if (ids.length === 0) return []
      const rows = await db('tickets').select('id').whereIn('id', ids) as Array<{ id: number }>
      return rows.map((r) => r.id)
    }
  }
}
