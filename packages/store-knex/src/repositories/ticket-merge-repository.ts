import type { CommentTypeNumber, TicketMerge, TicketMergeMoves, TicketMergeRepository } from '@helpdesk/core'
import { bool, parseJson } from '../rows/row-values.js'
import { insertId, now, type RepositoryContext } from './repository-context.js'
import { indexTickets } from './ticket-search.js'

interface TicketMergeRow {
  id: number
  kind: string
  source_id: number
  target_id: number
  actor_id: number | null
  moves: string
  created_at: string
  undone_at: string | null
}

const columns = ['id', 'kind', 'source_id', 'target_id', 'actor_id', 'moves', 'created_at', 'undone_at']

function mergeFromRow (row: TicketMergeRow): TicketMerge {
  return {
    id: row.id,
    kind: row.kind === 'split' ? 'split' : 'merge',
    source_id: row.source_id,
    target_id: row.target_id,
    actor_id: row.actor_id,
    moves: parseJson<TicketMergeMoves>(row.moves, {
      comment_ids: [], privatized_comment_ids: [], body_comment_id: null, body_attachment_ids: [], participant_ids: [], fields: {}, purchase_code: null, source_status: 1, reopened_target_from: null
    }),
    created_at: row.created_at,
    undone_at: row.undone_at
  }
}

/** Merges and splits: moving comments, attachments and participants between tickets, and the records that undo them. */
export function createTicketMergeRepository (ctx: RepositoryContext): TicketMergeRepository {
  const { db, dialect } = ctx
  return {
    async lock (ticketIds) {
      // SQLite runs one writer at a time: the transaction holds the database already.
      if (dialect.name !== 'postgres' || ticketIds.length === 0) return
      await db('tickets').select('id').whereIn('id', [...new Set(ticketIds)]).orderBy('id').forUpdate()
    },
    async commentsOf (ticketId) {
      const rows = await db('comments').select('id', 'type', 'private').where('ticket_id', ticketId).orderBy('created_at').orderBy('id') as Array<{ id: number, type: number, private: unknown }>
      return rows.map((row) => ({ id: row.id, type: Number(row.type) as CommentTypeNumber, private: bool(row.private) }))
    },
    async moveComments (commentIds, fromTicketId, toTicketId) {
      if (commentIds.length === 0) return []
      const rows = await db('comments').select('id').whereIn('id', commentIds).where('ticket_id', fromTicketId) as Array<{ id: number }>
      const ids = rows.map((row) => row.id)
      if (ids.length === 0) return []
      await db('comments').whereIn('id', ids).update({ ticket_id: toTicketId })
      await db('attachments').whereIn('comment_id', ids).update({ ticket_id: toTicketId })
      await indexTickets(db, dialect, [fromTicketId, toTicketId])
      return ids
    },
    async commentsElsewhere (commentIds, ticketId) {
      if (commentIds.length === 0) return []
      const rows = await db('comments').select('id').whereIn('id', commentIds).whereNot('ticket_id', ticketId).orderBy('id') as Array<{ id: number }>
      return rows.map((row) => row.id)
    },
    async setCommentsPrivate (commentIds, isPrivate) {
      if (commentIds.length > 0) await db('comments').whereIn('id', commentIds).update({ private: isPrivate })
    },
    async ticketAttachmentIds (ticketId) {
      const rows = await db('attachments').select('id').where('ticket_id', ticketId).whereNull('comment_id') as Array<{ id: string }>
      return rows.map((row) => String(row.id))
    },
    async moveAttachments (ids, target) {
      if (ids.length > 0) await db('attachments').whereIn('id', ids).update({ ticket_id: target.ticket_id, comment_id: target.comment_id })
    },
    async removeParticipants (ticketId, userIds) {
      if (userIds.length > 0) await db('mail_participants').where('ticket_id', ticketId).whereIn('user_id', userIds).delete()
    },
    async create (merge) {
      const row = { kind: merge.kind, source_id: merge.source_id, target_id: merge.target_id, actor_id: merge.actor_id, moves: JSON.stringify(merge.moves), created_at: now(ctx), undone_at: null }
      const id = await insertId(db('ticket_merges').insert(row))
      return mergeFromRow({ id, ...row })
    },
    async activeMergeOf (sourceId) {
      const row = await db('ticket_merges').select(columns).where({ source_id: sourceId, kind: 'merge' }).whereNull('undone_at').orderBy('id', 'desc').first() as TicketMergeRow | undefined
      return row === undefined ? null : mergeFromRow(row)
    },
    async markUndone (id, at) {
      return await db('ticket_merges').where('id', id).whereNull('undone_at').update({ undone_at: at }) > 0
    }
  }
}
