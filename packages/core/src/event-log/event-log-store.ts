import type { DateTimeString } from '../time.js'
import type { LoggedEvent, NewLoggedEvent } from './event-log.js'

/** The storage port of the event log (part of `Store`, same conventions). */
export interface EventLogRepository {
  /**
   * Inside the emitting transaction (rolled back with it). Returns the new
   * ids, in order: ids grow in the order events are appended.
   */
  append(events: NewLoggedEvent[]): Promise<number[]>
  /** Events with id > afterId, oldest first, at most `limit`. */
  after(afterId: number, limit: number): Promise<LoggedEvent[]>
  /** Those of `ids` that exist. */
  findByIds(ids: number[]): Promise<LoggedEvent[]>
  /** The newest id, 0 when the log is empty. */
  latestId(): Promise<number>
  /** Deletes up to `limit` events created before `before`, the oldest first; returns how many. */
  deleteBefore(before: DateTimeString, limit: number): Promise<number>
}
