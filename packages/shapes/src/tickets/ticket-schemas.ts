import { Type, type Static } from '@sinclair/typebox'
import {
  ATTACHMENT_ID_PATTERN, BULK_TICKET_LIMIT, HelpdeskError, LIMITS, TICKET_LIMITS, TICKET_MERGE_LIMITS,
  TICKET_TAG_LIMITS, ValidationError,
  type ActorInput, type BulkTicketOutcome as BulkTicketOutcomeEntity, type AvatarResolver, type Category as CategoryEntity, type Comment, type Tag as TagEntity, type Ticket as TicketEntity, type TicketResolution, type WithIncludes
} from '@helpdesk/core'
import { EmbeddedPerson, Nullable, NullableDateTime } from '../common.js'
import { Category, presentCategory } from '../categories/category-schemas.js'
import { presentEmbeddedPerson } from '../people.js'
import { presentRating, SatisfactionRating } from '../satisfaction/satisfaction-schemas.js'
import { presentTicketDue, TicketDue } from '../sla/sla-ticket-fields.js'
import {
  Attachment, CommentCore, includedAttachments, presentCommentCore, presentTicketCore, TicketCore, TicketPriority
} from './ticket-shapes.js'

export const TicketTag = Type.Object({ id: Type.Integer(), name: Type.String() })

const TagNames = Type.Array(Type.String({ minLength: 1, maxLength: TICKET_TAG_LIMITS.tag }), {
  maxItems: TICKET_TAG_LIMITS.tags,
  description: 'Staff only: tag names (trimmed, lowercased; unknown names create tags).'
})

export const Ticket = Type.Composite([TicketCore, TicketDue, Type.Object({
  user: Type.Optional(Nullable(EmbeddedPerson)),
  creator: Type.Optional(Nullable(EmbeddedPerson)),
  agent: Type.Optional(Nullable(EmbeddedPerson)),
  category: Type.Optional(Nullable(Category)),
  attachments: Type.Optional(Type.Array(Attachment)),
  attachments_count: Type.Optional(Type.Integer()),
  replies_count: Type.Optional(Type.Integer({ description: 'Replies (type 1) the caller may see.' })),
  last_reply: Type.Optional(Type.Union([CommentCore, Type.Null()], { description: 'The newest comment the caller may see.' })),
  last_read_by_me: Type.Optional(NullableDateTime),
  satisfaction: Type.Optional(Type.Union([SatisfactionRating, Type.Null()], { description: 'The latest rating, for the owner and staff (null for others).' })),
  tags: Type.Optional(Type.Array(TicketTag, { description: 'The ticket\'s tags by name (staff only: empty for customers).' }))
})])

export const AttachmentIds = Type.Array(Type.String({ pattern: ATTACHMENT_ID_PATTERN }), {
  maxItems: TICKET_LIMITS.attachments, description: 'Ids of the caller\'s own, not yet linked, uploads.'
})

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })
const Title = Type.String({ minLength: 1, maxLength: TICKET_LIMITS.title })
const Body = Type.String({ minLength: 1, maxLength: TICKET_LIMITS.body, description: 'Plain text or HTML (sanitised).' })

export const TicketCreate = Type.Object({
  category: Id,
  title: Title,
  body: Body,
  private: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  attachments: Type.Optional(AttachmentIds),
  customer_id: Type.Optional(Id),
  customer: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Alias of customer_id.' })),
  email: Type.Optional(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'Staff: the owner; a new email creates an Unconfirmed customer.' })),
  first_name: Type.Optional(Type.String({ maxLength: LIMITS.name })),
  last_name: Type.Optional(Type.String({ maxLength: LIMITS.name })),
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Custom-field answers, {field_id: value}.' })),
  purchase_code: Type.Optional(Type.String({ maxLength: TICKET_LIMITS.purchaseCode })),
  priority: Type.Optional(Type.Union(TicketPriority.anyOf, { description: 'Staff only (403 for customers); default normal.' })),
  tags: Type.Optional(TagNames)
}, {
  description: 'Customers create their own tickets; staff name the customer by `customer_id` (or `customer`) or `email`.',
  examples: [
    { category: 1, title: 'Cannot log in', body: '<p>The login page says my password is wrong.</p>', private: true },
    { category: 1, title: 'Invoice missing', body: 'Raised on the phone.', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' }
  ]
})

export const TicketUpdate = Type.Object({
  category: Type.Optional(Id),
  title: Type.Optional(Title),
  body: Type.Optional(Body),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, description: 'Staff only.' })),
  private: Type.Optional(Type.Boolean({ description: 'Staff only.' })),
  priority: Type.Optional(Type.Union(TicketPriority.anyOf, { description: 'Staff only.' })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: TICKET_TAG_LIMITS.tag }), {
    maxItems: TICKET_TAG_LIMITS.tags, description: 'Staff only: the ticket\'s tags become exactly these names.'
  }))
}, {
  description: 'Absent keys keep their value.',
  examples: [{ title: 'Cannot log in since Monday' }, { category: 2 }, { priority: 'urgent', tags: ['billing', 'refund'] }]
})

export const AssignBody = Type.Object({ agent: Id }, { examples: [{ agent: 2 }] })

export const MergeBody = Type.Object({
  target_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'The ticket to merge into: the same customer\'s, not merged itself, not this one.' })
}, { examples: [{ target_id: 42 }] })

/** The tickets' entry of `GET/PATCH /settings`. */
export const TicketSettings = {
  'tickets.merge_undo_hours': Type.Integer({ minimum: 0, maximum: 720, description: 'Hours within which a merge can be undone (`POST /tickets/{id}/unmerge`); 0 makes merges final. Default 24.' })
}

export const SplitBody = Type.Object({
  comment_ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems: 1, maxItems: TICKET_MERGE_LIMITS.splitComments, description: 'The comments of this ticket to move to the new one.' }),
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: TICKET_LIMITS.title, description: 'The new ticket\'s title; default this one\'s with "(split from #id)".' }))
}, { examples: [{ comment_ids: [12, 13], subject: 'Invoice question' }] })

/**
 * A ticket with whichever includes it carries, as `viewer` may see it. Built
 * as one object, key by key: a list page presents dozens of tickets.
 */
export function presentTicket (entity: TicketEntity, avatar: AvatarResolver, viewer: ActorInput): Static<typeof Ticket> {
  const ticket = entity as WithIncludes<TicketEntity>
  const presented: Static<typeof Ticket> = presentTicketCore(ticket)
  if ('user' in ticket) presented.user = presentEmbeddedPerson(ticket.user, avatar, viewer)
  if ('creator' in ticket) presented.creator = presentEmbeddedPerson(ticket.creator, avatar, viewer)
  if ('agent' in ticket) presented.agent = presentEmbeddedPerson(ticket.agent, avatar, viewer)
  const category = ticket.category as CategoryEntity | null | undefined
  if (category !== undefined) presented.category = category === null ? null : presentCategory(category)
  const { attachments } = includedAttachments(ticket)
  if (attachments !== undefined) presented.attachments = attachments
  if (ticket.attachments_count !== undefined) presented.attachments_count = ticket.attachments_count as number
  if (ticket.replies_count !== undefined) presented.replies_count = ticket.replies_count as number
  const lastReply = ticket.last_reply as Comment | null | undefined
  if (lastReply !== undefined) presented.last_reply = lastReply === null ? null : presentCommentCore(lastReply)
  if (ticket.last_read_by_me !== undefined) presented.last_read_by_me = ticket.last_read_by_me as string | null
  presentTicketDue(presented, ticket, viewer)
  if (ticket.satisfaction !== undefined) presented.satisfaction = ticket.satisfaction === null ? null : presentRating(ticket.satisfaction as TicketResolution)
  const tags = ticket.tags as TagEntity[] | undefined
  if (tags !== undefined) presented.tags = tags.map((tag) => ({ id: tag.id, name: tag.name }))
  return presented
}

export const BulkTicketAction = Type.Object({
  assign: Type.Optional(Type.Object({
    assignee_id: Type.Union([Id, Type.Null()], { description: 'The agent (or administrator) to assign; null leaves the tickets unassigned.' })
  }, { description: 'As `PUT` / `DELETE /tickets/{id}/agents`: administrators and agents with `assign_tickets`; the agent must work in each ticket\'s category.' })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, description: 'As `PATCH /tickets/{id}`: 1 Open, 2 Pending, 3 Closed.' })),
  close: Type.Optional(Type.Literal(true, { description: 'The same as `"status": 3`.' })),
  priority: Type.Optional(Type.Union(TicketPriority.anyOf, { description: 'As `PATCH /tickets/{id}`.' })),
  tags: Type.Optional(Type.Object({
    add: Type.Optional(TagNames),
    remove: Type.Optional(TagNames)
  }, { description: 'Names added to and removed from each ticket\'s tags (its other tags stay), written as `PATCH /tickets/{id}` with the resulting `tags`.' })),
  delete: Type.Optional(Type.Literal(true, { description: 'As `DELETE /tickets/{id}`: administrators and agents with `delete_tickets`. The outcome carries no ticket.' }))
}, { description: 'Exactly one of these keys: the action applied to every ticket (422 on `action` otherwise).' })

export const BulkTicketRequest = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: BULK_TICKET_LIMIT, uniqueItems: true, description: `The tickets, 1 to ${BULK_TICKET_LIMIT}, each once.` }),
  action: BulkTicketAction
}, {
  description: 'One action on many tickets; each ticket is checked and written on its own.',
  examples: [
    { ids: [12, 13, 14], action: { close: true } },
    { ids: [12, 13], action: { assign: { assignee_id: 2 } } },
    { ids: [12], action: { assign: { assignee_id: null } } },
    { ids: [12, 13], action: { tags: { add: ['billing'], remove: ['new'] } } }
  ]
})

export const BulkTicketError = Type.Object({
  code: Type.String({ description: 'The error registry\'s code (docs/errors.md): `HD_NOT_FOUND` (missing or not visible), `HD_FORBIDDEN`, `HD_VALIDATION`...; `HD_INTERNAL` when writing the ticket failed unexpectedly.' }),
  message: Type.String({ description: 'A sentence a person can read.' }),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'With `HD_VALIDATION`: one key per invalid field.' }))
}, { description: 'What the single-ticket route would have answered, in the contract\'s error shape plus its code.' })

export const BulkTicketOutcome = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  ticket: Type.Optional(Ticket),
  error: Type.Optional(BulkTicketError)
}, { description: '`ok` with the ticket as written (none after a delete), or `error` with why this ticket was left as it was.' })

/**
 * One ticket's outcome of a bulk request. An error that is not a help-desk
 * error is reported as `HD_INTERNAL` without its details (`onUnexpected` sees it, to log).
 */
export function presentBulkTicketOutcome (
  outcome: BulkTicketOutcomeEntity, present: (ticket: TicketEntity) => Static<typeof Ticket>, onUnexpected: (error: unknown) => void
): Static<typeof BulkTicketOutcome> {
  if (outcome.ok) return { id: outcome.id, status: 'ok', ...(outcome.ticket !== null ? { ticket: present(outcome.ticket) } : {}) }
  const { error } = outcome
  if (error instanceof ValidationError) return { id: outcome.id, status: 'error', error: { code: error.code, message: error.message, errors: error.errors } }
  if (error instanceof HelpdeskError) return { id: outcome.id, status: 'error', error: { code: error.code, message: error.message } }
  onUnexpected(error)
  return { id: outcome.id, status: 'error', error: { code: 'HD_INTERNAL', message: 'Server error.' } }
}
