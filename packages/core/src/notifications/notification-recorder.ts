import type { DomainEvent, EventRecorder } from '../events.js'
import { loggedIdOf } from '../event-log/event-log.js'
import type { Store } from '../store.js'
import { TicketEventType } from '../tickets/ticket-events.js'
import { candidateIds, recipientsOf, ruleFor } from './notification-rules.js'

function ticketIdOf (event: DomainEvent): number | null {
  const ticket = event.ticket as { id?: unknown } | undefined
  return typeof ticket?.id === 'number' ? ticket.id : null
}

/**
 * Writes an event's notifications inside the transaction that emitted it (an
 * outbox): they commit with the change or not at all. At most three queries
 * per event, whatever the number of recipients: the staff group, the
 * candidates' settings, one batched insert.
 */
export const recordNotifications: EventRecorder = async (tx: Store, event: DomainEvent) => {
  // A deleted ticket's notifications go with it (CONTRACT §8).
  if (event.type === TicketEventType.TicketDeleted) {
    const ticketId = ticketIdOf(event)
    if (ticketId !== null) await tx.notifications.deleteForTicket(ticketId)
    return
  }
  const rule = ruleFor(event.type)
  if (rule === null) return
  const audience = rule.audience(event)
  const staff = audience.staff !== undefined ? await tx.users.staffIds(audience.staff) : []
  const candidates = candidateIds(audience, staff, event.actor_id)
  if (candidates.length === 0) return
  const recipients = recipientsOf(audience, await tx.users.notificationSettingsOf(candidates))
  if (recipients.length === 0) return
  const data = rule.data(event)
  const ticketId = ticketIdOf(event)
  const eventId = loggedIdOf(event)
  await tx.notifications.createMany(recipients.map((userId) => ({
    user_id: userId, type: event.type, data, author_id: event.actor_id, ticket_id: ticketId, event_id: eventId
  })))
}
