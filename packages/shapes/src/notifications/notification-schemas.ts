import { Type, type Static } from '@sinclair/typebox'
import { fullName, type AvatarResolver, type Notification as NotificationEntity } from '@helpdesk/core'
import { DateTime, Nullable, NullableDateTime } from '../common.js'

const Ref = (name: string) => Type.Object({ id: Type.Integer(), name: Type.String() }, { description: `The ${name}.` })

/** The `data` payload (CONTRACT §11): which keys appear depends on `type`. */
export const NotificationData = Type.Object({
  author_id: Nullable(Type.Integer({ description: 'The user who caused it.' })),
  ticket: Type.Optional(Type.Object({ id: Type.Integer(), title: Type.String() })),
  category: Type.Optional(Ref('ticket\'s category')),
  comment: Type.Optional(Type.Object({ id: Type.Integer(), preview: Type.String() }, { description: 'Tickets.CommentAdded.' })),
  agent: Type.Optional(Ref('assigned agent (Tickets.TicketAssigned)')),
  customer: Type.Optional(Ref('customer (Customers.NoteAdded)')),
  note: Type.Optional(Type.Object({ id: Type.Integer() }, { description: 'Customers.NoteAdded.' })),
  import: Type.Optional(Type.Object({
    id: Type.Integer(), created: Type.Integer(), failed: Type.Integer(), message: Nullable(Type.String())
  }, { description: 'Import.ImportCompletedSuccessfully / Import.ImportFailed.' })),
  webhook: Type.Optional(Type.Object({ id: Type.Integer(), url: Type.String() }, { description: 'Webhooks.EndpointDisabled.' })),
  satisfaction: Type.Optional(Type.Object({
    resolution: Type.Integer(), rating: Type.Union([Type.Literal('good'), Type.Literal('bad')]), comment: Nullable(Type.String())
  }, { description: 'Tickets.SatisfactionRated (a bad rating): the closing rated, the rating, the comment\'s first 200 characters.' })),
  sla: Type.Optional(Type.Object({ target: Type.String(), due_at: Type.String() }, { description: 'Tickets.SlaWarning / Tickets.SlaBreached: the target and its due time.' })),
  merge: Type.Optional(Type.Object({
    source: Type.Object({ id: Type.Integer(), title: Type.String() }), comments: Type.Integer()
  }, { description: 'Tickets.TicketMerged: the ticket merged into `ticket` and how many comments came with it.' }))
})

export const Notification = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: Type.String({ description: 'Tickets.TicketCreated, Tickets.CommentAdded, ... (see Events).' }),
  data: NotificationData,
  author: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), avatar: Type.String() }, {
    description: 'The user who caused the notification; null when nobody did (imports) or the user is gone.'
  })),
  read_at: NullableDateTime,
  created_at: DateTime,
  updated_at: DateTime
})

export const NotificationParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
/** `/notifications/{id}/unread`: the id is accepted and ignored (CONTRACT §16). */
export const IgnoredIdParams = Type.Object({ id: Type.String() })

export function presentNotification (notification: NotificationEntity, avatar: AvatarResolver): Static<typeof Notification> {
  const author = notification.author
  return {
    id: notification.id,
    type: notification.type,
    data: notification.data,
    author: author === null ? null : { id: author.id, name: fullName(author), avatar: avatar(author) },
    read_at: notification.read_at,
    created_at: notification.created_at,
    updated_at: notification.updated_at
  }
}
