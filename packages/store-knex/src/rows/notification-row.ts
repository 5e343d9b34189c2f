import type { NewNotification, Notification, NotificationData } from '@helpdesk/core'
import { parseJson } from './row-values.js'

/** A notification row joined with its author's name and email (`author_*`, null without author). */
export interface NotificationRow {
  id: string
  user_id: number
  type: string
  data: string
  author_id: number | null
  ticket_id: number | null
  read_at: string | null
  created_at: string
  updated_at: string
  author_first_name: string | null
  author_last_name: string | null
  author_email: string | null
}

export const notificationColumns = [
  ...['id', 'user_id', 'type', 'data', 'author_id', 'ticket_id', 'read_at', 'created_at', 'updated_at'].map((c) => `notifications.${c}`),
  'authors.first_name as author_first_name',
  'authors.last_name as author_last_name',
  'authors.email as author_email'
]

export function notificationFromRow (row: NotificationRow): Notification {
  return {
    id: String(row.id),
    user_id: row.user_id,
    type: row.type,
    data: parseJson<NotificationData>(row.data, { author_id: row.author_id }),
    author: row.author_id === null || row.author_email === null
      ? null
      : { id: row.author_id, first_name: row.author_first_name ?? '', last_name: row.author_last_name ?? '', email: row.author_email },
    ticket_id: row.ticket_id,
    read_at: row.read_at,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

export function rowFromNewNotification (notification: NewNotification, id: string, now: string): Omit<NotificationRow, 'author_first_name' | 'author_last_name' | 'author_email'> & { event_id?: number | null } {
  return {
    id,
    user_id: notification.user_id,
    type: notification.type,
    data: JSON.stringify(notification.data),
    author_id: notification.author_id,
    ticket_id: notification.ticket_id,
    ...(notification.event_id !== undefined ? { event_id: notification.event_id } : {}),
    read_at: null,
    created_at: now,
    updated_at: now
  }
}
