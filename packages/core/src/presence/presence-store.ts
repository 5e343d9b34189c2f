import type { DateTimeString } from '../time.js'
import type { Ticket } from '../tickets/ticket.js'
import type { PresenceEntry, PresenceState } from './presence.js'

/**
 * Presence rows: one per (ticket, user, client_id), that is per browser tab,
 * kept alive by heartbeats; others see one entry per person, the sum of their
 * live tabs. Writes that change what others see (someone arrives, leaves or
 * changes state) are announced to every instance on the presence channel of
 * the store's `eventNotifier` (never through the event log: see
 * docs/event-stream.md).
 */
export interface PresenceRepository {
  /**
   * Inserts or refreshes the tab's row; `changed` is true when what others see
   * of the user changed: they were not present in any tab (no live row), or
   * their summed state (`typing` when any tab is) is now another, and the
   * change has then been announced. A tab joining a stay already under way
   * keeps its `since`.
   */
  upsert(entry: { ticket_id: number, user_id: number, client_id: string, state: PresenceState, expires_at: DateTimeString }, now: DateTimeString): Promise<{ changed: boolean }>
  /**
   * Removes the row of one tab of the user on the ticket (announced when what
   * others see changed: the user's last live tab left, or the only typing
   * one); false when there was none.
   */
  remove(ticketId: number, userId: number, clientId: string, now: DateTimeString): Promise<boolean>
  /**
   * The people live (some tab's expires_at > now) on these tickets, one entry
   * per (ticket, person) summing their live tabs, oldest stay first; one query.
   */
  liveOf(ticketIds: number[], now: DateTimeString): Promise<PresenceEntry[]>
  /** What deciding who may see these tickets needs (missing tickets are left out); one query. */
  ticketFacts(ticketIds: number[]): Promise<Array<Pick<Ticket, 'id' | 'user_id' | 'private' | 'category_id' | 'assigned_agent_id'>>>
  /** Deletes up to `limit` rows (tabs) expired before `before`; returns how many. */
  deleteExpired(before: DateTimeString, limit: number): Promise<number>
}
