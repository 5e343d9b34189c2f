import type { Knex } from 'knex'
import type { Attachment, AttachmentRepository } from '@helpdesk/core'
import type { IncludeLoader } from '../list/list-mapping.js'
import { attachmentColumns, attachmentFromRow } from '../rows/ticket-rows.js'
import { now, type RepositoryContext } from './repository-context.js'

/** The user's unlinked uploads: count and bytes (the partial index of migration 0010 finds them). */
async function unlinkedUsageOf (db: Knex, userId: number): Promise<{ files: number, bytes: number }> {
  const row = await db('attachments').where('user_id', userId).whereNull('ticket_id').whereNull('comment_id')
    .first(db.raw('count(*) as files'), db.raw('coalesce(sum(size), 0) as bytes')) as { files: number | string, bytes: number | string } | undefined
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) }
}

/**
 * The `attachments` include of tickets (their own files, not their comments')
 * and of comments: one query for the whole page, each item gets an array.
 */
export function attachmentsInclude<Item extends { id: number }> (owner: 'ticket_id' | 'comment_id'): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const qb = db('attachments').select(attachmentColumns).whereIn(`attachments.${owner}`, items.map((i) => i.id))
    if (owner === 'ticket_id') void qb.whereNull('attachments.comment_id')
    const rows = await qb.orderBy([{ column: 'attachments.created_at' }, { column: 'attachments.id' }]) as Attachment[]
    const byOwner = new Map<number, Attachment[]>()
    for (const row of rows) {
      const id = row[owner]
      if (id === null) continue
      const list = byOwner.get(id) ?? []
      list.push(attachmentFromRow(row))
      byOwner.set(id, list)
    }
    for (const item of items) (item as Record<string, unknown>)[key] = byOwner.get(item.id) ?? []
  }
}

export function createAttachmentRepository (ctx: RepositoryContext): AttachmentRepository {
  const { db } = ctx
  const attachments = (): Knex.QueryBuilder => db('attachments').select(attachmentColumns)
  const fileNames = async (qb: Knex.QueryBuilder): Promise<string[]> =>
    (await qb.select('attachments.file_name') as Array<{ file_name: string }>).map((r) => r.file_name)
  return {
    async create (attachment) {
      const at = now(ctx)
      const row = { ...attachment, ticket_id: null, comment_id: null, created_at: at, updated_at: at }
      await db('attachments').insert(row)
      return attachmentFromRow(row)
    },
    async unlinkedUsage (userId) {
      return await unlinkedUsageOf(db, userId)
    },
    async createWithinQuota (attachment, quota) {
      return await db.transaction(async (trx) => {
        // A write to the uploader's row locks it (PostgreSQL; SQLite writes one at a time anyway).
        await trx('users').where('id', attachment.user_id).update({ updated_at: trx.ref('updated_at') })
        const used = await unlinkedUsageOf(trx, attachment.user_id)
        if (used.files + 1 > quota.maxFiles || used.bytes + attachment.size > quota.maxBytes) return null
        const at = now(ctx)
        const row = { ...attachment, ticket_id: null, comment_id: null, created_at: at, updated_at: at }
        await trx('attachments').insert(row)
        return attachmentFromRow(row)
      })
    },
    async findById (id) {
      const row = await attachments().where('attachments.id', id.toLowerCase()).first() as Attachment | undefined
      return row === undefined ? null : attachmentFromRow(row)
    },
    async findByIds (ids) {
      if (ids.length === 0) return []
      const rows = await attachments().whereIn('attachments.id', ids.map((id) => id.toLowerCase())) as Attachment[]
      return rows.map(attachmentFromRow)
    },
    async link (ids, uploaderId, target) {
      if (ids.length === 0) return 0
      const lower = ids.map((id) => id.toLowerCase())
      const linked = await db('attachments')
        .whereIn('id', lower)
        .where('user_id', uploaderId)
        .whereNull('ticket_id')
        .whereNull('comment_id')
        .update({ ticket_id: target.ticket_id, comment_id: target.comment_id, updated_at: now(ctx) })
      // Carried to a ticket or comment, an upload leaves the draft that held it.
      if (linked > 0) await db('draft_attachments').whereIn('attachment_id', lower).delete()
      return linked
    },
    async delete (id) {
      return await db('attachments').where('id', id.toLowerCase()).delete() > 0
    },
    async fileNamesOfTicket (ticketId) {
      return await fileNames(db('attachments').where('ticket_id', ticketId))
    },
    async fileNamesOfTicketsOwnedBy (userId) {
      return await fileNames(db('attachments').whereIn('ticket_id', db('tickets').select('id').where('user_id', userId)))
    },
    async fileNamesOfComment (commentId) {
      return await fileNames(db('attachments').where('comment_id', commentId))
    },
    async deleteUnlinkedBefore (before, limit) {
      // Unlinked and in no draft: a draft keeps its uploads for as long as it exists.
      const unlinked = (qb: Knex.QueryBuilder): Knex.QueryBuilder => qb.whereNull('ticket_id').whereNull('comment_id')
        .whereNotExists(db('draft_attachments').select(db.raw('1')).whereRaw('draft_attachments.attachment_id = attachments.id'))
      const stale = await unlinked(db('attachments').select('id', 'file_name'))
        .where('created_at', '<', before).orderBy('created_at').limit(limit) as Array<{ id: string, file_name: string }>
      const deleted: string[] = []
      // One by one, each still required to be unlinked: one linked meanwhile stays.
      for (const row of stale) {
        if (await unlinked(db('attachments').where('id', row.id)).delete() > 0) deleted.push(row.file_name)
      }
      return deleted
    }
  }
}
