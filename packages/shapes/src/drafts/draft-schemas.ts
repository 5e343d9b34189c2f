import { Type, type Static } from '@sinclair/typebox'
import { commentTypeText, TICKET_LIMITS, type Draft as DraftEntity, type Ticket, type WithIncludes } from '@helpdesk/core'
import { DateTime } from '../common.js'
import { AttachmentIds } from '../tickets/ticket-schemas.js'
import { Attachment, presentAttachment, presentTicketCore, TicketCore } from '../tickets/ticket-shapes.js'

const CommentTypeNumber = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 Reply, 2 Note (staff only).' })

export const Draft = Type.Object({
  id: Type.Integer(),
  ticket_id: Type.Integer(),
  type: Type.Integer({ description: '1 Reply, 2 Note: what it becomes when sent.' }),
  type_text: Type.String({ description: 'Reply or Note.' }),
  body: Type.String({ description: 'Sanitised HTML, as a comment\'s body; may be empty.' }),
  private: Type.Boolean(),
  attachments: Type.Array(Attachment, { description: 'The author\'s uploads the draft holds (not pruned while it exists).' }),
  created_at: DateTime,
  updated_at: DateTime,
  ticket: Type.Optional(TicketCore)
}, { description: 'An unsent reply or note: one per person and ticket, seen by its author alone.' })

export const DraftSave = Type.Object({
  body: Type.String({ maxLength: TICKET_LIMITS.body, description: 'Plain text or HTML (sanitised as a comment\'s); may be empty.' }),
  type: Type.Optional(CommentTypeNumber),
  private: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  attachments: Type.Optional(AttachmentIds)
}, { examples: [{ body: '<p>Thanks for waiting, I am checking with</p>', type: 1, attachments: [] }, { body: 'Ask finance', type: 2, private: true }] })

/** A draft as its author reads it, with the `ticket` include when it was asked for. */
export function presentDraft (entity: DraftEntity): Static<typeof Draft> {
  const draft = entity as WithIncludes<DraftEntity>
  const ticket = draft.ticket as Ticket | null | undefined
  return {
    id: draft.id,
    ticket_id: draft.ticket_id,
    type: draft.type,
    type_text: commentTypeText(draft.type),
    body: draft.body,
    private: draft.private,
    attachments: draft.attachments.map(presentAttachment),
    created_at: draft.created_at,
    updated_at: draft.updated_at,
    ...(ticket !== undefined && ticket !== null ? { ticket: presentTicketCore(ticket) } : {})
  }
}
