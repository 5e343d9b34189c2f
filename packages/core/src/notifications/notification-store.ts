import type { ListQuery, Page } from '../list/list-query.js'
import type { Notification, NotificationData } from './notification.js'

/* The storage port for notifications (part of `Store`, same conventions). */

export interface NewNotification {
  user_id: number
  type: string
  data: NotificationData
  author_id: number | null
  ticket_id: number | null
  /** The logged event that caused it (`event_log.id`), when it was logged. */
  event_id?: number | null
}

/** Notifications, always scoped to their recipient: another user's id behaves as missing. */
export interface NotificationRepository {
  /** Inserts all in one batch; ids are generated time-ordered UUIDs, `created_at` is now. */
  createMany(notifications: NewNotification[]): Promise<void>
  /** The user's notifications (`filter[read]`, `filter[type]`), each with its author. */
  list(userId: number, query: ListQuery): Promise<Page<Notification>>
  findForUser(userId: number, id: string): Promise<Notification | null>
  /** Null marks unread; a datetime marks read, keeping an earlier `read_at`. Null when not the user's. */
  setReadAt(userId: number, id: string, readAt: string | null): Promise<Notification | null>
  /** Marks the user's unread notifications read; returns how many. */
  markAllRead(userId: number, readAt: string): Promise<number>
  deleteForTicket(ticketId: number): Promise<number>
  /**
   * The users' notifications written by these logged events (`event_id`), in
   * creation order, in one query whatever the number of users or events (the
   * event stream reads each batch once for all its subscribers).
   */
  forEvents(userIds: number[], eventIds: number[]): Promise<Array<{ event_id: number, notification: Notification }>>
  /** Unread notifications per user, in one query; users without any are absent. */
  unreadCounts(userIds: number[]): Promise<Map<number, number>>
}
