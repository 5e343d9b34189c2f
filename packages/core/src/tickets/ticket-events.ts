import type { Category } from '../categories/category.js'
import type { DomainEvent } from '../events.js'
import type { Channel } from '../users/actor.js'
import type { User } from '../users/user.js'
import type { Comment } from './comment.js'
import type { Ticket } from './ticket.js'

/**
 * Ticket events, emitted inside the transaction of the change (so notification
 * rows commit with it). Every one carries the ticket as it is after the change
 * and its category.
 */
export const TicketEventType = {
  TicketCreated: 'Tickets.TicketCreated',
  TicketCreatedByAgent: 'Tickets.TicketCreatedByAgent',
  CommentAdded: 'Tickets.CommentAdded',
  TicketAssigned: 'Tickets.TicketAssigned',
  TicketClosedByAgent: 'Tickets.TicketClosedByAgent',
  TicketClosedByCustomer: 'Tickets.TicketClosedByCustomer',
  TicketDeleted: 'Tickets.TicketDeleted',
  TicketUpdated: 'Tickets.TicketUpdated',
  CommentUpdated: 'Tickets.CommentUpdated',
  CommentDeleted: 'Tickets.CommentDeleted',
  TicketMerged: 'Tickets.TicketMerged',
  TicketUnmerged: 'Tickets.TicketUnmerged',
  TicketSplit: 'Tickets.TicketSplit'
} as const

export interface TicketEventBase extends DomainEvent {
  actor_id: number | null
  ticket: Ticket
  category: { id: number, name: string }
  /** The rule the actor used for this change (a macro: `{type: 'macro', id, name}`); absent for a change by hand. */
  rule?: { type: 'trigger' | 'automation' | 'macro' | 'sla', id: number, name: string }
}

/** Always raised on creation. */
export interface TicketCreatedEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketCreated
  /** The door it came in through (reports group by it). */
  channel?: Channel
}

/** Also raised when staff created the ticket on behalf of a customer (its owner). */
export interface TicketCreatedByAgentEvent extends TicketEventBase { type: typeof TicketEventType.TicketCreatedByAgent }

export interface CommentAddedEvent extends TicketEventBase {
  type: typeof TicketEventType.CommentAdded
  /** Consumers hide notes and private replies by `type`/`private`; the body is read by id. */
  comment: Pick<Comment, 'id' | 'type' | 'private' | 'preview'> & { user_id: number }
  /** The author is an administrator or agent. */
  by_staff: boolean
}

export interface TicketAssignedEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketAssigned
  /** The newly assigned agent. */
  agent: Pick<User, 'id' | 'first_name' | 'last_name'>
}

/** A comment with `close = true` by staff closed the ticket. */
export interface TicketClosedByAgentEvent extends TicketEventBase { type: typeof TicketEventType.TicketClosedByAgent }

/** A comment with `close = true` by the owner closed the ticket. */
export interface TicketClosedByCustomerEvent extends TicketEventBase { type: typeof TicketEventType.TicketClosedByCustomer }

/** The ticket is gone (its comments and attachments with it); `ticket` is its last state. */
export interface TicketDeletedEvent extends TicketEventBase { type: typeof TicketEventType.TicketDeleted }

/**
 * Any change of the ticket itself (title, body, category, status, privacy,
 * assignment), besides the specific events some of them also raise.
 */
export interface TicketUpdatedEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketUpdated
  /** The fields that changed (e.g. `['status', 'category_id']`). */
  changes: string[]
}

/** A comment's body or privacy changed; `comment` is its new state. */
export interface CommentUpdatedEvent extends TicketEventBase {
  type: typeof TicketEventType.CommentUpdated
  comment: Comment
  changes: string[]
}

/** The comment is gone; `comment` is its last state. */
export interface CommentDeletedEvent extends TicketEventBase {
  type: typeof TicketEventType.CommentDeleted
  comment: Comment
}

/** What a merge or split moved, as its events tell it (counts; ids are read through the API). */
export interface TicketMergeFacts {
  /** The record of the merge or split. */
  id: number
  source: { id: number, title: string }
  target: { id: number, title: string }
  comments: number
}

/**
 * A ticket (`merge.source`) was merged into this one (`ticket`, the target,
 * as it is after the merge); the source is closed with `merged_into_id`.
 */
export interface TicketMergedEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketMerged
  merge: TicketMergeFacts
}

/** A merge was undone: `ticket` is the source again, open as before; `merge.target` gave the moved comments back. */
export interface TicketUnmergedEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketUnmerged
  merge: TicketMergeFacts
}

/** Comments of `merge.source` were moved to a new ticket: `ticket` (also announced by `Tickets.TicketCreated`). */
export interface TicketSplitEvent extends TicketEventBase {
  type: typeof TicketEventType.TicketSplit
  merge: TicketMergeFacts
}

export type TicketEvent =
  | TicketCreatedEvent | TicketCreatedByAgentEvent | CommentAddedEvent | TicketAssignedEvent
  | TicketClosedByAgentEvent | TicketClosedByCustomerEvent | TicketDeletedEvent
  | TicketUpdatedEvent | CommentUpdatedEvent | CommentDeletedEvent
  | TicketMergedEvent | TicketUnmergedEvent | TicketSplitEvent

/** The names of the fields `patch` sets to a value different from `before`'s. */
export function changedFields (before: object, patch: object): string[] {
  const old = before as Record<string, unknown>
  return Object.entries(patch).filter(([key, value]) => value !== undefined && JSON.stringify(old[key]) !== JSON.stringify(value)).map(([key]) => key)
}

/** The fields every ticket event carries besides its type. */
export function ticketEventFacts (
  actorId: number | null, ticket: Ticket, category: Pick<Category, 'id' | 'name'>
): Pick<TicketEventBase, 'actor_id' | 'ticket' | 'category'> {
  return { actor_id: actorId, ticket, category: { id: category.id, name: category.name } }
}
