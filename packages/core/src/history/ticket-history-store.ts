import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { NewTicketHistoryEntry, TicketHistoryEntry } from './ticket-history.js'

/**
 * Storage port of ticket history (part of `Store`, same conventions): rows
 * appended in the transaction of the change, gone with their ticket.
 */
export interface TicketHistoryRepository {
  /** Appends the entries (one statement for a few, batches for many: imports). */
  add(entries: readonly NewTicketHistoryEntry[]): Promise<void>
  /** One page of the ticket's entries; only the public ones when `publicOnly`. */
  list(ticketId: number, publicOnly: boolean, query: ListQuery): Promise<Page<WithIncludes<TicketHistoryEntry>>>
}
