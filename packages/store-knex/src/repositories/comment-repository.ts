import type { Knex } from 'knex'
import {
  commentList, CommentType,
  type Comment, type CommentRepository, type CommentVisibility, type Ticket, type PersonSummary, type WithIncludes
} from '@helpdesk/core'
import { listPage, loadIncludes, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { commentColumns, commentFromRow, rowFromNewComment, ticketColumns, ticketFromRow, type CommentRow, type TicketRow } from '../rows/ticket-rows.js'
import { attachmentsInclude } from './attachment-repository.js'
import { peopleByIds } from './customer-note-repository.js'
import { insertMany, insertRows, now, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'
import { indexTickets } from './ticket-search.js'

type Item = WithIncludes<Comment>

/**
 * The comments `visibility` lets a caller see, as a condition on `comments`
 * (with its bindings; empty when the caller sees them all): written once, for
 * the comment list (`whereCommentVisible`) and for the prepared statements of
 * a ticket's `replies-count` and `last_reply` includes.
 */
export function commentVisibleSql (visibility: CommentVisibility): { sql: string, bindings: unknown[] } | null {
  if ('all' in visibility) return null
  return {
    sql: 'comments.type = ? and (comments.private = ? or comments.ticket_id in (select tickets.id from tickets where tickets.user_id = ?))',
    bindings: [CommentType.Reply, false, visibility.repliesFor]
  }
}

/** `CommentVisibility` as SQL on a query of `comments`. */
export function whereCommentVisible (qb: Knex.QueryBuilder, visibility: CommentVisibility): void {
  const visible = commentVisibleSql(visibility)
  if (visible !== null) void qb.whereRaw(visible.sql, visible.bindings as Knex.RawBinding[])
}

async function ticketsByIds (db: Knex, ids: Array<number | string>): Promise<Ticket[]> {
  const rows = await db('tickets').select(ticketColumns).whereIn('tickets.id', ids) as TicketRow[]
  return rows.map(ticketFromRow)
}

const mapping: ListMapping<typeof commentList, CommentRow, Item> = {
  spec: commentList,
  sorts: { created_at: 'comments.created_at' },
  partial: {},
  exact: {},
  includes: {
    user: relationInclude<Item, PersonSummary>('user_id', peopleByIds),
    attachments: attachmentsInclude<Item>('comment_id'),
    ticket: relationInclude<Item, Ticket>('ticket_id', ticketsByIds)
  },
  idColumn: 'comments.id',
  map: (row) => commentFromRow(row) as Item
}

export function createCommentRepository (ctx: RepositoryContext): CommentRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'comments')
  const comments = (): Knex.QueryBuilder => db('comments').select(commentColumns)
  return {
    async findById (id) {
      const row = await comments().where('comments.id', id).first() as CommentRow | undefined
      return row === undefined ? null : commentFromRow(row)
    },
    // The ticket's search documents hold its comments (replies; notes in staff's): rewritten with each change, in its transaction.
    async create (comment) {
      const row = rowFromNewComment(comment, now(ctx))
      const [id] = await insertRows(ctx, 'comments', [row], true)
      await indexTickets(db, ctx.dialect, [row.ticket_id])
      return commentFromRow({ id: id as number, ...row })
    },
    async createMany (list) {
      const at = now(ctx)
      const ids = await insertMany(db, 'comments', list.map((c) => rowFromNewComment(c, at)), 200)
      await indexTickets(db, ctx.dialect, [...new Set(list.map((c) => c.ticket_id))])
      return ids
    },
    async update (id, patch) {
      const updated = await table.update(id, patch) ? await this.findById(id) : null
      if (updated !== null && ['body', 'private', 'type'].some((field) => field in patch)) await indexTickets(db, ctx.dialect, [updated.ticket_id])
      return updated
    },
    async delete (id) {
      const ticket = await db('comments').select('ticket_id').where('id', id).first() as { ticket_id: number } | undefined
      const deleted = await table.delete(id)
      if (deleted && ticket !== undefined) await indexTickets(db, ctx.dialect, [ticket.ticket_id])
      return deleted
    },
    async list (ticket, visibility, query) {
      const base = comments().where('comments.ticket_id', ticket.id)
      whereCommentVisible(base, visibility)
      return await listPage(db, ctx.dialect, base, mapping, query)
    },
    async idsAfter (ticket, visibility, afterId, exceptUserId, limit) {
      const query = db('comments').select('comments.id').where('comments.ticket_id', ticket.id).where('comments.id', '>', afterId)
        .where((qb) => { void qb.whereNull('comments.user_id').orWhereNot('comments.user_id', exceptUserId) })
        .orderBy('comments.id').limit(limit)
      whereCommentVisible(query, visibility)
      return (await query as Array<{ id: number }>).map((row) => Number(row.id))
    },
    async withIncludes (comment, query) {
      const item = { ...comment } as Item
      await loadIncludes(db, mapping as ListMapping<typeof commentList, unknown, Item>, [item], query)
      return item
    }
  }
}
