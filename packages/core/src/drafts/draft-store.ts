import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { TicketVisibility } from '../tickets/ticket-policy.js'
import type { Draft } from './draft.js'

/** A draft as saved: `body` already sanitised, `attachments` already checked to be the author's unlinked uploads. */
export interface DraftValues extends Pick<Draft, 'user_id' | 'ticket_id' | 'type' | 'body' | 'private'> {
  attachment_ids: string[]
}

/**
 * Storage port for drafts (part of Store). Every read and write is keyed by
 * the author: no method returns another person's draft.
 */
export interface DraftRepository {
  /** The author's draft on the ticket, with its attachments; null when there is none. */
  find(userId: number, ticketId: number): Promise<Draft | null>
  /**
   * Creates or replaces the author's draft on the ticket (one per author and
   * ticket, also when two saves race): its attachments become exactly
   * `attachment_ids`. An attachment sits in one draft at most: saving it in
   * another draft of the author's moves it there.
   */
  save(values: DraftValues): Promise<Draft>
  /** Deletes the author's draft on the ticket (its attachments stay, unlinked); false when there was none. */
  delete(userId: number, ticketId: number): Promise<boolean>
  /** How many drafts the author keeps. */
  count(userId: number): Promise<number>
  /** One page of the author's drafts on tickets `visibility` allows, with their attachments and the query's includes. */
  list(userId: number, visibility: TicketVisibility, query: ListQuery): Promise<Page<WithIncludes<Draft>>>
}
