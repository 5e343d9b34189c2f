import type { DomainEvent } from '../events.js'
import type { MailKind } from '../mail/mail.js'
import { CommentType } from '../tickets/comment.js'
import { TicketEventType, type CommentAddedEvent, type TicketAssignedEvent, type TicketEventBase } from '../tickets/ticket-events.js'
import type { Audience } from './notification-rules.js'

/** Who gets a mail for an event: an audience (as for notifications) and the kind of mail. */
export interface MailAudience extends Audience {
  kind: MailKind
  /** The ticket's participants (people Cc'd in by mail) get it too. */
  participants: boolean
  /** Mail a customer gets: it carries `List-Unsubscribe`, and opting out stops it. */
  toCustomers: boolean
}

function agentsOf (e: TicketEventBase): Pick<Audience, 'users' | 'staff'> {
  const agent = e.ticket.assigned_agent_id
  return agent !== null ? { users: [agent] } : { users: [], staff: { categoryId: e.ticket.category_id } }
}

/**
 * Which events send mail, to whom (CONTRACT §11, narrowed to what people want
 * in their inbox): a customer gets staff replies to their ticket (never a
 * note, never a reply private to staff) and the closing; agents get new
 * tickets, their assignments and customer replies. Never the actor; the
 * recipients' notification settings apply as for notifications. Pure.
 */
export function mailAudience (event: DomainEvent): MailAudience | null {
  switch (event.type) {
    case TicketEventType.TicketCreated: {
      const e = event as TicketEventBase
      return { kind: 'new-ticket', users: [], staff: { admins: true, categoryId: e.ticket.category_id }, setting: 'new_ticket', participants: false, toCustomers: false }
    }
    case TicketEventType.CommentAdded: {
      const e = event as CommentAddedEvent
      if (e.comment.type === CommentType.Note) return null
      if (!e.by_staff) return { kind: 'customer-reply', ...agentsOf(e), setting: 'new_comment', participants: false, toCustomers: false }
      if (e.comment.private) return null
      return { kind: 'reply', users: [e.ticket.user_id], setting: 'new_comment', participants: true, toCustomers: true }
    }
    case TicketEventType.TicketAssigned: {
      const e = event as TicketAssignedEvent
      return { kind: 'assigned', users: [e.agent.id], setting: 'ticket_reassigned', participants: false, toCustomers: false }
    }
    case TicketEventType.TicketClosedByAgent: {
      const e = event as TicketEventBase
      return { kind: 'closed', users: [e.ticket.user_id], setting: null, participants: true, toCustomers: true }
    }
    default:
      return null
  }
}
