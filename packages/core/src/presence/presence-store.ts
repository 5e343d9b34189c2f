import type { DateTimeString } from '../time.js'
import type { Ticket } from '../tickets/ticket.js'
import type { PresenceEntry, PresenceState } from './presence.js'

/**
 * Presence rows: one per (ticket, user), kept alive by heartbeats. Writes that
 * change what others see (someone arrives, leaves or changes state) are
 * announced to every instance on the presence channel of the store's
 * `eventNotifier` (never through the event log: see docs/event-stream.md).
 */
export interface PresenceRepository {
  /**
   * Inserts or refreshes the row; `changed` is true when the user was not
   * present (no row, or an expired one) or was in another state, and the
   * change has then been announced.
   */
  upsert(entry: { ticket_id: number, user_id: number, state: PresenceState, expires_at: DateTimeString }, now: DateTimeString): Promise<{ changed: boolean }>
  /** Removes the user's row on the ticket (announced when there was a live one); false when there was none. */
  remove(ticketId: number, userId: number, now: DateTimeString): Promise<boolean>
  /** The live rows (expires_at > now) of these tickets, with their people, oldest stay first; one query. */
  liveOf(ticketIds: number[], now: DateTimeString): Promise<PresenceEntry[]>
  /** What deciding who may see these tickets needs (missing tickets are left out); one query. */
  ticketFacts(ticketIds: number[]): Promise<Array<Pick<Ticket, 'id' | 'user_id' | 'private' | 'category_id' | 'assigned_agent_id'>>>
  /** Deletes up to `limit` rows expired before `before`; returns how many. */
  deleteExpired(before: DateTimeString, limit: number): Promise<number>
}
