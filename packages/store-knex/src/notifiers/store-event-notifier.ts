import type { Knex } from 'knex'
import type { EventLogRepository, EventNotifier } from '@helpdesk/core'

/** The store's side of the notifier: announcing ids from inside the transaction that wrote them. */
export interface StoreEventNotifier extends EventNotifier {
  /**
   * Announces `ids` once `db`'s transaction commits (at once outside one);
   * never when it rolls back.
   */
  announce(db: Knex, ids: number[]): Promise<void>
  /** Announces that presence changed on these tickets (after `db`'s transaction commits, at once outside one). */
  announcePresence(db: Knex, ticketIds: number[]): Promise<void>
}

/** The event log whose appended ids go to `announce` (which may defer them to the end of the transaction). */
export function announcing (eventLog: EventLogRepository, announce: (ids: number[]) => Promise<void>): EventLogRepository {
  return {
    ...eventLog,
    async append (events) {
      const ids = await eventLog.append(events)
      await announce(ids)
      return ids
    }
  }
}
