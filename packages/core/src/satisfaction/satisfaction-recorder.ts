import type { DomainEvent, EventRecorder } from '../events.js'
import { loggedIdOf } from '../event-log/event-log.js'
import { candidateIds } from '../notifications/notification-rules.js'
import type { NotificationData } from '../notifications/notification.js'
import { TicketEventType, type TicketEventBase } from '../tickets/ticket-events.js'
import { SatisfactionEventType, type SatisfactionRatedEvent } from './satisfaction.js'
import { currentSurvey } from './satisfaction-service.js'

/**
 * Counts the closings of tickets: each `TicketClosedByAgent` or
 * `TicketClosedByCustomer` (every way a ticket closes raises one) records the
 * ticket's next resolution, in the closing's transaction. A rating is about
 * one resolution; reopening and closing again makes a new one to rate.
 */
export const recordResolutions: EventRecorder = async (tx, event) => {
  if (event.type !== TicketEventType.TicketClosedByAgent && event.type !== TicketEventType.TicketClosedByCustomer) return
  const { ticket } = event as TicketEventBase
  await tx.satisfaction.addResolution({
    ticket_id: ticket.id, closed_by: event.actor_id, agent_id: ticket.assigned_agent_id, category_id: ticket.category_id
  })
}

/** The `data` of the notification of a bad rating. */
function badRatingData (event: SatisfactionRatedEvent): NotificationData {
  return {
    ticket: { id: event.ticket.id, title: event.ticket.title },
    category: { id: event.category.id, name: event.category.name },
    author_id: event.actor_id,
    satisfaction: {
      resolution: event.satisfaction.resolution,
      rating: event.satisfaction.rating,
      comment: event.satisfaction.comment === null ? null : event.satisfaction.comment.slice(0, 200)
    }
  }
}

/**
 * A bad rating (new, changed to bad, or its comment changed) notifies the
 * ticket's assignee, else the agents of its category, when the administrator
 * left `satisfaction.notify_on_bad` on (read in the rating's transaction).
 * Notification type `Tickets.SatisfactionRated`; no personal setting applies.
 * At most three queries, and only for bad ratings.
 */
export const recordBadRatingNotifications: EventRecorder = async (tx, event: DomainEvent) => {
  if (event.type !== SatisfactionEventType.SatisfactionRated) return
  const rated = event as SatisfactionRatedEvent
  if (rated.satisfaction.rating !== 'bad') return
  if (!(await currentSurvey(tx)).notify_on_bad) return
  const agent = rated.ticket.assigned_agent_id
  const staff = agent === null ? await tx.users.staffIds({ categoryId: rated.ticket.category_id }) : []
  const recipients = candidateIds({ users: [agent], setting: null }, staff, event.actor_id)
  if (recipients.length === 0) return
  const data = badRatingData(rated)
  const eventId = loggedIdOf(event)
  await tx.notifications.createMany(recipients.map((userId) => ({
    user_id: userId, type: event.type, data, author_id: event.actor_id, ticket_id: rated.ticket.id, event_id: eventId
  })))
}
