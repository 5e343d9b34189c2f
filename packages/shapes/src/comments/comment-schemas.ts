import { Type, type Static } from '@sinclair/typebox'
import { TICKET_LIMITS, type ActorInput, type AvatarResolver, type Comment as CommentEntity, type Ticket, type WithIncludes } from '@helpdesk/core'
import { EmbeddedPerson, Nullable } from '../common.js'
import { presentEmbeddedPerson } from '../people.js'
import { AttachmentIds } from '../tickets/ticket-schemas.js'
import { Attachment, CommentCore, includedAttachments, presentCommentCore, presentTicketCore, TicketCore } from '../tickets/ticket-shapes.js'

export const Comment = Type.Composite([CommentCore, Type.Object({
  user: Type.Optional(Nullable(EmbeddedPerson)),
  attachments: Type.Optional(Type.Array(Attachment)),
  ticket: Type.Optional(TicketCore)
})])

const Body = Type.String({ minLength: 1, maxLength: TICKET_LIMITS.body, description: 'Plain text or HTML (sanitised).' })

export const CommentCreate = Type.Object({
  body: Body,
  type: Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 Reply, 2 Note (staff only).' }),
  private: Type.Boolean(),
  close: Type.Optional(Type.Boolean({ description: 'Close the ticket (ignored when it is closed already).' })),
  attachments: Type.Optional(AttachmentIds),
  if_no_comments_after: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 2147483647,
    description: 'Collision check: the id of the newest comment you had seen when your draft began (0 when there was none). If someone else has added a comment you may see since, nothing is written and the answer is 409: read the new comments, then send again without this field.'
  }))
}, { examples: [{ body: '<p>Fixed in today\'s release.</p>', type: 1, private: false, close: true }, { body: 'Customer called again.', type: 2, private: true }] })

export const CommentUpdate = Type.Object({ body: Body }, { examples: [{ body: '<p>Fixed in release 2.4.1.</p>' }] })

export const TicketCommentsParams = Type.Object({ ticket_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) })

/** A comment with whichever includes it carries, as `viewer` may see it. */
export function presentComment (entity: CommentEntity, avatar: AvatarResolver, viewer: ActorInput): Static<typeof Comment> {
  const comment = entity as WithIncludes<CommentEntity>
  const ticket = comment.ticket as Ticket | null | undefined
  return {
    ...presentCommentCore(comment),
    ...('user' in comment ? { user: presentEmbeddedPerson(comment.user, avatar, viewer) } : {}),
    ...includedAttachments(comment),
    ...(ticket !== undefined && ticket !== null ? { ticket: presentTicketCore(ticket) } : {})
  }
}
