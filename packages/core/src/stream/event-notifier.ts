/**
 * Tells every instance which event-log ids just committed (the event stream's
 * wake-up call). Only ids travel: the content is read from the event log.
 * Adapters (store-knex): PostgreSQL `LISTEN/NOTIFY` on one channel, so every
 * instance on the database hears every commit; an in-process signal after
 * commit on SQLite (one instance).
 */
export interface EventNotifier {
  /**
   * Delivers announced ids (committed by any instance) to `listener` until the
   * returned function is called. Resolves once listening.
   */
  listen(listener: EventNotifierListener): Promise<() => Promise<void>>
}

export interface EventNotifierListener {
  ids: (ids: number[]) => void
  /**
   * The listening connection was lost and is back: ids announced meanwhile
   * were missed, read the log after the last id seen instead.
   */
  resync: () => void
  /**
   * Presence (who is viewing or typing on a ticket) changed on these tickets,
   * on any instance. A lighter channel than the ids: presence is never written
   * to the event log (docs/event-stream.md), only the ticket ids travel and
   * the rows are read from the presence table. Missed announcements are
   * harmless: clients also learn presence from their own heartbeats.
   */
  presence?: (ticketIds: number[]) => void
}
