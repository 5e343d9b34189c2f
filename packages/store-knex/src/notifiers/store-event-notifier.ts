import type { Knex } from 'knex'
import type { EventNotifier } from '@helpdesk/core'

/** The store's side of the notifier: announcing ids from inside the transaction that wrote them. */
export interface StoreEventNotifier extends EventNotifier {
  /**
   * Announces `ids` once `db`'s transaction commits (at once outside one);
   * never when it rolls back.
   */
  announce(db: Knex, ids: number[]): Promise<void>
}
