import type { DomainEvent, EventRecorder } from '../events.js'
import { loggedIdOf } from '../event-log/event-log.js'
import { candidateIds } from '../notifications/notification-rules.js'
import type { Store } from '../store.js'
import { CommentType } from '../tickets/comment.js'
import { TicketEventType, type CommentAddedEvent, type TicketEventBase, type TicketUpdatedEvent } from '../tickets/ticket-events.js'
import type { Ticket } from '../tickets/ticket.js'
import type { Clock } from '../time.js'
import { evaluateTicketSla, type SlaChange, type SlaConfigCache } from './sla-evaluation.js'
import { SlaEventType, type SlaBreachedEvent, type SlaWarningEvent } from './sla-events.js'
import type { TicketSlaDue, TicketSlaState } from './sla-store.js'

/** Ticket changes that move an SLA clock: the fields whose change re-matches the policy or the status. */
const RELEVANT_CHANGES = new Set(['status', 'category_id', 'user_id', 'additional'])

/** The evaluations of a transaction, so the events of one change cost one read and one evaluation. */
const statesOf = new WeakMap<Store, Map<number, { state: TicketSlaState | null, status: number, category: number, user: number, fields: string, due: TicketSlaDue | null }>>()

/**
 * Brings a ticket's SLA state and due times up to date in the transaction of
 * the change: a new ticket, a reply (staff or customer), a change of status,
 * category or owner. The due times are written onto the ticket's row and onto
 * the event's ticket (so the response, the event log and webhooks carry them).
 */
export async function applyTicketSla (
  tx: Store, cache: SlaConfigCache, clock: Clock, ticket: Ticket, change: SlaChange, force = false
): Promise<TicketSlaState | null> {
  // Only whole tickets (events made up by hand carry a few fields) move clocks.
  if (typeof ticket?.created_at !== 'string' || typeof ticket.additional !== 'object' || ticket.additional === null) return null
  const config = await cache.load(tx)
  if (config.policies.length === 0) return null
  let seen = statesOf.get(tx)
  if (seen === undefined) { seen = new Map(); statesOf.set(tx, seen) }
  const fields = JSON.stringify(ticket.additional.fields ?? {})
  const known = seen.get(ticket.id)
  // Another event of the same change (the status change of a reply, the closing): nothing new to add.
  if (known !== undefined && change === null && !force && known.due !== null && known.status === ticket.status &&
    known.category === ticket.category_id && known.user === ticket.user_id && known.fields === fields) {
    Object.assign(ticket, known.due)
    return known.state
  }
  const previous = known !== undefined ? known.state : (await tx.sla.ticketStates([ticket.id])).get(ticket.id) ?? null
  const email = config.needs_email ? (await tx.users.findById(ticket.user_id))?.email ?? null : undefined
  const result = evaluateTicketSla(config, previous, ticket, email, change, clock.now())
  seen.set(ticket.id, { state: result.state, status: ticket.status, category: ticket.category_id, user: ticket.user_id, fields, due: result.due })
  if (result.changed || force) {
    // The ticket's columns only when a due time moved (its row was read with them).
    const same = ticket.first_response_due_at !== undefined && ticket.first_response_due_at === result.due.first_response_due_at &&
      ticket.next_response_due_at === result.due.next_response_due_at && ticket.resolution_due_at === result.due.resolution_due_at &&
      ticket.sla_next_due_at === result.due.sla_next_due_at
    await tx.sla.saveTicketState(result.state, same ? null : result.due)
  }
  Object.assign(ticket, result.due)
  return result.state
}

/**
 * The SLA hook of the ticket write path, as an event recorder (it runs in the
 * transaction of each ticket change; registered with one line in
 * `createHelpdesk`, beside the other recorders).
 */
export function createSlaRecorder (cache: SlaConfigCache, clock: Clock): EventRecorder {
  return async (tx, event) => {
    switch (event.type) {
      case TicketEventType.TicketCreated:
      case TicketEventType.TicketClosedByAgent:
      case TicketEventType.TicketClosedByCustomer:
        await applyTicketSla(tx, cache, clock, (event as TicketEventBase).ticket, null)
        return
      case TicketEventType.CommentAdded: {
        const added = event as CommentAddedEvent
        const reply: SlaChange = added.comment.type === CommentType.Reply ? { reply: added.by_staff ? 'staff' : 'customer' } : null
        await applyTicketSla(tx, cache, clock, added.ticket, reply)
        return
      }
      case TicketEventType.TicketUpdated: {
        const updated = event as TicketUpdatedEvent
        if (updated.changes.some((c) => RELEVANT_CHANGES.has(c))) await applyTicketSla(tx, cache, clock, updated.ticket, null)
      }
    }
  }
}

/**
 * A warning or breach notifies the ticket's assignee, else the agents of its
 * category (no personal setting applies). At most two queries.
 */
export const recordSlaNotifications: EventRecorder = async (tx, event: DomainEvent) => {
  if (event.type !== SlaEventType.SlaWarning && event.type !== SlaEventType.SlaBreached) return
  const sla = event as SlaWarningEvent | SlaBreachedEvent
  const agent = sla.ticket.assigned_agent_id
  const staff = agent === null ? await tx.users.staffIds({ categoryId: sla.ticket.category_id }) : []
  const recipients = candidateIds({ users: [agent], setting: null }, staff, event.actor_id)
  if (recipients.length === 0) return
  const data = {
    ticket: { id: sla.ticket.id, title: sla.ticket.title },
    category: { id: sla.category.id, name: sla.category.name },
    author_id: null,
    sla: { target: sla.sla.target, due_at: sla.sla.due_at }
  }
  const eventId = loggedIdOf(event)
  await tx.notifications.createMany(recipients.map((userId) => ({
    user_id: userId, type: event.type, data, author_id: null, ticket_id: sla.ticket.id, event_id: eventId
  })))
}
