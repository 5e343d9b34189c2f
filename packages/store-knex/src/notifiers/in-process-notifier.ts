import type { Knex } from 'knex'
import type { EventNotifierListener } from '@helpdesk/core'
import type { StoreEventNotifier } from './store-event-notifier.js'

/** One process (SQLite): listeners hear the ids after the writing transaction committed. */
export function createInProcessNotifier (): StoreEventNotifier {
  const listeners = new Set<EventNotifierListener>()
  const signal = (ids: number[]): void => {
    for (const listener of listeners) listener.ids(ids)
  }
  const signalPresence = (ticketIds: number[]): void => {
    for (const listener of listeners) listener.presence?.(ticketIds)
  }
  const afterCommit = (db: Knex, fire: () => void): void => {
    if (db.isTransaction === true) {
      // Settles after COMMIT (or ROLLBACK, which rejects: nothing to announce then).
      (db as Knex.Transaction).executionPromise.then(fire, () => {})
    } else {
      fire()
    }
  }
  return {
    async listen (listener) {
      listeners.add(listener)
      return async () => { listeners.delete(listener) }
    },
    async announce (db, ids) {
      if (ids.length === 0 || listeners.size === 0) return
      afterCommit(db, () => { signal(ids) })
    },
    async announcePresence (db, ticketIds) {
      if (ticketIds.length === 0 || listeners.size === 0) return
      afterCommit(db, () => { signalPresence(ticketIds) })
    }
  }
}
