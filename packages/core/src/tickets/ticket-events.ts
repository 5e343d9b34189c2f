import type { Category } from '../categories/category.js'
import type { DomainEvent } from '../events.js'
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
  TicketDeleted: 'Tickets.TicketDeleted'
} as const

export interface TicketEventBase extends DomainEvent {
  actor_id: number | null
  ticket: Ticket
  category: { id: number, name: string }
}

/** Always raised on creation. */
export interface TicketCreatedEvent extends TicketEventBase { type: typeof TicketEventType.TicketCreated }

/** Also raised when staff created the ticket on behalf of a customer (its owner). */
export interface TicketCreatedByAgentEvent extends TicketEventBase { type: typeof TicketEventType.TicketCreatedByAgent }

export interface CommentAddedEvent extends TicketEventBase {
  type: typeof TicketEventType.CommentAdded
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

export type TicketEvent =
  | TicketCreatedEvent | TicketCreatedByAgentEvent | CommentAddedEvent | TicketAssignedEvent
  | TicketClosedByAgentEvent | TicketClosedByCustomerEvent | TicketDeletedEvent

/** The fields every ticket event carries besides its type. */
export function ticketEventFacts (
  actorId: number | null, ticket: Ticket, category: Pick<Category, 'id' | 'name'>
): Pick<TicketEventBase, 'actor_id' | 'ticket' | 'category'> {
  return { actor_id: actorId, ticket, category: { id: category.id, name: category.name } }
}
