import type { CommentVisibility } from '../tickets/ticket-policy.js'
import type { Ticket } from '../tickets/ticket.js'

/**
 * Who sees the ratings of a ticket they can see: staff, and the ticket's
 * owner (who gave them). Another customer reading a public ticket does not:
 * a rating and its comment are between the owner and the help desk. Read
 * from the comment visibility of the caller's scope (`all` is staff's), so
 * the ticket include, the API and the event stream apply one rule.
 */
export function canSeeSatisfaction (visibility: CommentVisibility, ticket: Pick<Ticket, 'user_id'>): boolean {
  return 'all' in visibility || visibility.repliesFor === ticket.user_id
}
