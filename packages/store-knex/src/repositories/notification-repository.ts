import type { Knex } from 'knex'
import { notificationList, type Notification, type NotificationRepository } from '@helpdesk/core'
import { batches } from '../dialects/full-text.js'
import { listPage, parseExact, type ListMapping } from '../list/list-mapping.js'
import { notificationColumns, notificationFromRow, rowFromNewNotification, type NotificationRow } from '../rows/notification-row.js'
import { insertRows, now, type RepositoryContext } from './repository-context.js'
import { timeOrderedUuid } from './time-ordered-id.js'

/** Rows per INSERT: well under SQLite's bound-variable limit whatever the audience size. */
const INSERT_CHUNK = 500

const mapping: ListMapping<typeof notificationList, NotificationRow, Notification> = {
  spec: notificationList,
  sorts: { created_at: 'notifications.created_at' },
  partial: {},
  exact: {
    read: (qb, values) => {
      const wanted = new Set(parseExact('read', 'bool', values))
      if (wanted.size === 2) return
      void (wanted.has(true) ? qb.whereNotNull('notifications.read_at') : qb.whereNull('notifications.read_at'))
    },
    type: { column: 'notifications.type', type: 'string' }
  },
  includes: {},
  // Time-ordered UUIDs: the tie-breaker keeps notifications of one second in creation order.
  idColumn: 'notifications.id',
  map: notificationFromRow
}

export function createNotificationRepository (ctx: RepositoryContext): NotificationRepository {
  const { db } = ctx
  const ofUser = (userId: number): Knex.QueryBuilder => db('notifications')
    .leftJoin('users as authors', 'authors.id', 'notifications.author_id')
    .select(notificationColumns)
    .where('notifications.user_id', userId)

  return {
    async createMany (notifications) {
      const at = now(ctx)
      const rows = notifications.map((n) => rowFromNewNotification(n, timeOrderedUuid(), at))
      for (const part of batches(rows, INSERT_CHUNK)) await insertRows(ctx, 'notifications', part, false)
    },
    async list (userId, query) {
      return await listPage(db, ctx.dialect, ofUser(userId), mapping, query)
    },
    async findForUser (userId, id) {
      const row = await ofUser(userId).where('notifications.id', id).first() as NotificationRow | undefined
      return row === undefined ? null : notificationFromRow(row)
    },
    async setReadAt (userId, id, readAt) {
      const qb = db('notifications').where({ id, user_id: userId })
      if (readAt !== null) void qb.whereNull('read_at')
      await qb.update({ read_at: readAt, updated_at: now(ctx) })
      return await this.findForUser(userId, id)
    },
    async markAllRead (userId, readAt) {
      return await db('notifications').where('user_id', userId).whereNull('read_at').update({ read_at: readAt, updated_at: now(ctx) })
    },
    async deleteForTicket (ticketId) {
      return await db('notifications').where('ticket_id', ticketId).delete()
    },
    async forEvents (userIds, eventIds) {
      if (userIds.length === 0 || eventIds.length === 0) return []
      const qb = db('notifications')
        .leftJoin('users as authors', 'authors.id', 'notifications.author_id')
        .select([...notificationColumns, 'notifications.event_id'])
      ctx.dialect.whereIdIn(qb, 'notifications.event_id', eventIds)
      ctx.dialect.whereIdIn(qb, 'notifications.user_id', userIds)
      const rows = await qb.orderBy('notifications.id') as Array<NotificationRow & { event_id: number | string }>
      return rows.map((row) => ({ event_id: Number(row.event_id), notification: notificationFromRow(row) }))
    },
    async unreadCounts (userIds) {
      const counts = new Map<number, number>()
      if (userIds.length === 0) return counts
      const rows = await db('notifications').select('user_id').count({ count: '*' })
        .whereIn('user_id', userIds).whereNull('read_at').groupBy('user_id') as Array<{ user_id: number, count: number | string }>
      for (const row of rows) counts.set(Number(row.user_id), Number(row.count))
      return counts
    }
  }
}
