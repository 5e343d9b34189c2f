import type { DomainEvent, EventRecorder } from '../events.js'
import type { Store } from '../store.js'
import type { DateTimeString } from '../time.js'

/** One committed domain event, as kept in the event log (the outbox). Ids only grow. */
export interface LoggedEvent {
  /** Monotonically increasing (autoincrement / bigserial). */
  id: number
  /** E.g. 'Tickets.CommentAdded', 'Tickets.TicketUpdated'. */
  type: string
  actor_id: number | null
  /** For visibility filtering of ticket events. */
  ticket_id: number | null
  /** The DomainEvent minus `type`/`actor_id`, as JSON (ticket, category, comment...). */
  payload: Record<string, unknown>
  created_at: DateTimeString
}

export type NewLoggedEvent = Omit<LoggedEvent, 'id' | 'created_at'>

/** The event as the log keeps it: `type` and `actor_id` in their columns, the rest as the payload. */
export function loggedEventOf (event: DomainEvent): NewLoggedEvent {
  const { type, actor_id: actorId, ...payload } = event
  const ticket = payload.ticket as { id?: unknown } | undefined
  return {
    type,
    actor_id: actorId,
    ticket_id: typeof ticket?.id === 'number' ? ticket.id : null,
    payload: JSON.parse(JSON.stringify(payload)) as Record<string, unknown>
  }
}

/** Events appended by one statement at most (a bulk change's are split). */
const APPEND_BATCH = 500

/** Where the log id of an event recorded in this process is kept (for recorders that run after this one). */
const loggedIds = new WeakMap<DomainEvent, number>()

/** The event-log id of an event appended by `recordEventLog`, or null. */
export function loggedIdOf (event: DomainEvent): number | null {
  return loggedIds.get(event) ?? null
}

/**
 * Appends every domain event to the event log inside the emitting
 * transaction: the log is the outbox the channels (webhooks, e-mail, the
 * event stream) work from, so a crash never loses or invents an event.
 * The events of a bulk change go in with one statement (`many`).
 */
export const recordEventLog: EventRecorder = Object.assign(async (tx: Store, event: DomainEvent) => {
  const [id] = await tx.eventLog.append([loggedEventOf(event)])
  if (id !== undefined) loggedIds.set(event, id)
}, {
  many: async (tx: Store, events: readonly DomainEvent[]) => {
    for (let start = 0; start < events.length; start += APPEND_BATCH) {
      const batch = events.slice(start, start + APPEND_BATCH)
      const ids = await tx.eventLog.append(batch.map(loggedEventOf))
      batch.forEach((event, index) => {
        const id = ids[index]
        if (id !== undefined) loggedIds.set(event, id)
      })
    }
  }
})
