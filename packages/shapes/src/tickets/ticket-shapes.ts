import { Type, type Static } from '@sinclair/typebox'
import { commentTypeText, PRIORITIES, type Attachment as AttachmentEntity, type Comment, type Ticket } from '@helpdesk/core'
import { DateTime, Nullable, NullableDateTime } from '../common.js'

/*
 * The plain shapes of tickets, comments and attachments (no includes), shared
 * by the three resources' schemas: a ticket embeds its last reply, a comment
 * its ticket, both their attachments.
 */

export const Attachment = Type.Object({
  id: Type.String({ format: 'uuid', description: 'UUID.' }),
  user_id: Nullable(Type.Integer({ description: 'The uploader.' })),
  name: Type.String({ description: 'The file name the uploader gave.' }),
  file_name: Type.String({ description: 'The stored name: generated, never taken from the upload.' }),
  mime_type: Type.String({ description: 'Sniffed from the content, not the client\'s claim.' }),
  size: Type.Integer({ description: 'Bytes.' }),
  created_at: DateTime,
  updated_at: DateTime
})

export const TicketAdditional = Type.Object({
  fields: Type.Record(Type.String(), Type.String(), { description: 'Custom-field answers keyed by field id.' }),
  purchase_code: Type.Optional(Type.String({ description: 'Marketplace purchase code.' }))
}, { description: 'Empty for customers reading someone else\'s public ticket.' })

export const TicketPriority = Type.Union(PRIORITIES.map((p) => Type.Literal(p)), {
  description: 'low, normal (the default), high or urgent; sorting by `priority` orders by that rank.'
})

export const TicketCore = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer({ description: 'The owner (a customer).' }),
  title: Type.String(),
  body: Type.String({ description: 'Sanitised HTML.' }),
  status: Type.Integer({ description: '1 Open, 2 Pending, 3 Closed.' }),
  priority: TicketPriority,
  private: Type.Boolean(),
  additional: TicketAdditional,
  category_id: Type.Integer(),
  assigned_agent_id: Nullable(Type.Integer()),
  agent_assigned_at: NullableDateTime,
  merged_into_id: Nullable(Type.Integer({ description: 'The ticket this one was merged into (it is closed, and replies to it land there); null when not merged.' })),
  created_at: DateTime,
  updated_at: DateTime
})

export const CommentCore = Type.Object({
  id: Type.Integer(),
  ticket_id: Type.Integer(),
  user_id: Nullable(Type.Integer({ description: 'The author; null once deleted.' })),
  body: Type.String({ description: 'Sanitised HTML.' }),
  preview: Type.String({ description: 'Plain text, at most 200 characters.' }),
  type: Type.Integer({ description: '1 Reply, 2 Note.' }),
  type_text: Type.String({ description: 'Reply or Note.' }),
  private: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime
})

export function presentAttachment (attachment: AttachmentEntity): Static<typeof Attachment> {
  return {
    id: attachment.id,
    user_id: attachment.user_id,
    name: attachment.name,
    file_name: attachment.file_name,
    mime_type: attachment.mime_type,
    size: attachment.size,
    created_at: attachment.created_at,
    updated_at: attachment.updated_at
  }
}

export function presentTicketCore (ticket: Ticket): Static<typeof TicketCore> {
  const { purchase_code: purchaseCode } = ticket.additional
  return {
    id: ticket.id,
    user_id: ticket.user_id,
    title: ticket.title,
    body: ticket.body,
    status: ticket.status,
    priority: ticket.priority,
    private: ticket.private,
    additional: { fields: ticket.additional.fields ?? {}, ...(typeof purchaseCode === 'string' ? { purchase_code: purchaseCode } : {}) },
    category_id: ticket.category_id,
    assigned_agent_id: ticket.assigned_agent_id,
    agent_assigned_at: ticket.agent_assigned_at,
    merged_into_id: ticket.merged_into_id ?? null,
    created_at: ticket.created_at,
    updated_at: ticket.updated_at
  }
}

export function presentCommentCore (comment: Comment): Static<typeof CommentCore> {
  return {
    id: comment.id,
    ticket_id: comment.ticket_id,
    user_id: comment.user_id,
    body: comment.body,
    preview: comment.preview,
    type: comment.type,
    type_text: commentTypeText(comment.type),
    private: comment.private,
    created_at: comment.created_at,
    updated_at: comment.updated_at
  }
}

/** An attachments include: the array when asked for, absent otherwise. */
export function includedAttachments (item: Record<string, unknown>): { attachments?: Array<Static<typeof Attachment>> } {
  const list = item.attachments as AttachmentEntity[] | undefined
  return list === undefined ? {} : { attachments: list.map(presentAttachment) }
}
