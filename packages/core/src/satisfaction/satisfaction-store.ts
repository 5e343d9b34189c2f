import type { Channel } from '../users/actor.js'
import type { SatisfactionValue, TicketResolution } from './satisfaction.js'

/** A closing to record: the facts of the ticket as it closed. */
export interface NewResolution {
  ticket_id: number
  closed_by: number | null
  agent_id: number | null
  category_id: number
}

/** A rating to write on one resolution. */
export interface ResolutionRating {
  rating: SatisfactionValue
  /** Undefined keeps the stored comment; null removes it. */
  comment: string | null | undefined
  customer_id: number
  agent_id: number | null
  category_id: number
  channel: Channel
}

/**
 * Storage port of the resolutions of tickets and their satisfaction ratings
 * (part of `Store`, same conventions). One row per closing, keyed
 * (ticket, resolution), gone with its ticket.
 */
export interface SatisfactionRepository {
  /**
   * Records a closing as the ticket's next resolution (its latest number plus
   * one, 1 for the first), `closed_at` now; in the caller's transaction,
   * which has written the ticket's status (so concurrent closings of one
   * ticket are numbered one after the other).
   */
  addResolution(resolution: NewResolution): Promise<TicketResolution>
  /** The ticket's latest resolution (the highest number), or null when it was never closed since they are counted. */
  latest(ticketId: number): Promise<TicketResolution | null>
  /** Every resolution of the ticket, the latest first. */
  ofTicket(ticketId: number): Promise<TicketResolution[]>
  /**
   * Writes a rating on one resolution and answers the row before and after
   * (null when there is no such resolution). The row is locked first, so
   * concurrent ratings of it are applied one after the other and `before` is
   * what the rating replaced. `rated_at` is set on the first rating,
   * `rating_updated_at` on every one (now).
   */
  rate(ticketId: number, resolution: number, rating: ResolutionRating): Promise<{ before: TicketResolution, after: TicketResolution } | null>
}
