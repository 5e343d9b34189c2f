import { ImportEventType } from '../imports/import-job.js'
import { defineList } from '../list/list-spec.js'
import { TicketEventType } from '../tickets/ticket-events.js'
import type { DateTimeString } from '../time.js'
import type { User } from '../users/user.js'

/** The `type` values of notifications (SERVICE-SPEC "Events"). */
export const NotificationType = {
  TicketCreated: TicketEventType.TicketCreated,
  TicketCreatedByAgent: TicketEventType.TicketCreatedByAgent,
  CommentAdded: TicketEventType.CommentAdded,
  TicketAssigned: TicketEventType.TicketAssigned,
  TicketClosedByAgent: TicketEventType.TicketClosedByAgent,
  TicketClosedByCustomer: TicketEventType.TicketClosedByCustomer,
  TicketMerged: TicketEventType.TicketMerged,
  NoteAdded: 'Customers.NoteAdded',
  ImportCompletedSuccessfully: ImportEventType.Completed,
  ImportFailed: ImportEventType.Failed,
  WebhookEndpointDisabled: 'Webhooks.EndpointDisabled'
} as const
export type NotificationTypeName = typeof NotificationType[keyof typeof NotificationType]

/**
 * The `data` payload (CONTRACT §11): `ticket` and `category` wherever a ticket
 * is involved, `author_id` always, plus the keys of the type.
 */
export interface NotificationData {
  author_id: number | null
  ticket?: { id: number, title: string }
  category?: { id: number, name: string }
  comment?: { id: number, preview: string }
  agent?: { id: number, name: string }
  customer?: { id: number, name: string }
  note?: { id: number }
  import?: { id: number, created: number, failed: number, message: string | null }
  webhook?: { id: number, url: string }
  /** `Tickets.SatisfactionRated` (a bad rating): the resolution rated, the rating, the comment's first 200 characters. */
  satisfaction?: { resolution: number, rating: 'good' | 'bad', comment: string | null }
  /** `Tickets.SlaWarning` / `Tickets.SlaBreached`: the target and its due time. */
  sla?: { target: string, due_at: string }
  /** `Tickets.TicketMerged`: the ticket merged into `ticket` and how many comments came with it. */
  merge?: { source: { id: number, title: string }, comments: number }
}

/** The user who caused a notification, as far as a notification shows them. */
export type NotificationAuthor = Pick<User, 'id' | 'first_name' | 'last_name' | 'email'>

export interface Notification {
  /** A UUID (time-ordered, so ids sort like `created_at`). */
  id: string
  user_id: number
  type: string
  data: NotificationData
  /** Null when nobody caused it (system events) or the user was deleted. */
  author: NotificationAuthor | null
  /** The ticket it is about, so deleting the ticket deletes it. */
  ticket_id: number | null
  read_at: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** `GET /notifications`: newest first; `filter[read]=0|1`, `filter[type]=...` (CONTRACT §11). */
export const notificationList = defineList({
  resource: 'notifications',
  includes: [],
  sorts: ['created_at'],
  defaultSort: '-created_at',
  keyTypes: { created_at: 'datetime', id: 'string' },
  partialFilters: [],
  exactFilters: ['read', 'type']
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isNotificationId (id: string): boolean {
  return UUID.test(id)
}
