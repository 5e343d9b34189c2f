import type { Tag } from '../knowledge-base/article.js'
import type { Ticket } from './ticket.js'

/**
 * The ticket as `Tickets.TicketCreated` and `Tickets.TicketUpdated` carry
 * it: with its tags (`{id, name}`, as the `tags` include shows them), so
 * webhook payloads, which present the ticket as the API does, show them.
 */
export function ticketWithTags (ticket: Ticket, tags: Tag[]): Ticket & { tags: Tag[] } {
  return { ...ticket, tags }
}

/** The ticket as history compares it: its tags by name (`recordTicketChanges`). */
export function ticketWithTagNames (ticket: Ticket, tags: readonly Tag[]): Ticket {
  return { ...ticket, tags: tags.map((tag) => tag.name) } as Ticket
}
