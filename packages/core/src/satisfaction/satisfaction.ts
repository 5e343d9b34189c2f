import type { Channel } from '../users/actor.js'
import type { DateTimeString } from '../time.js'
import type { TicketEventBase } from '../tickets/ticket-events.js'

/** A customer's verdict on one resolution of their ticket. */
export type SatisfactionValue = 'good' | 'bad'

export const SATISFACTION_VALUES: readonly SatisfactionValue[] = ['good', 'bad']

export function isSatisfactionValue (value: unknown): value is SatisfactionValue {
  return value === 'good' || value === 'bad'
}

/** Limits shared by every door. */
export const SATISFACTION_LIMITS = {
  /** The optional comment, plain text, in characters. */
  comment: 2000,
  /** The administrator's wording: the question and the two labels. */
  question: 250,
  label: 100,
  /** How long a rating link in a closing mail works, in days. */
  linkDays: { min: 1, max: 365 }
} as const

/**
 * One closing of a ticket (`ticket_resolutions`): the n-th time it was
 * closed (1, 2, ...), and the owner's rating of it once given. A ticket
 * closed, reopened and closed again has two resolutions, each rated on its
 * own. The rating columns are null until the owner rates; they may change
 * (good <-> bad, comment) while the resolution is the ticket's latest and
 * the ticket is still closed.
 */
export interface TicketResolution {
  ticket_id: number
  /** 1 for the first closing, counting up. */
  resolution: number
  closed_at: DateTimeString
  /** Who closed it (a user id), null for the system or once that user is gone. */
  closed_by: number | null
  /** The assignee: when it closed, then when it was rated. */
  agent_id: number | null
  /** The ticket's category: when it closed, then when it was rated (null once that category is deleted). */
  category_id: number | null
  rating: SatisfactionValue | null
  comment: string | null
  /** The customer who rated (the ticket's owner then). */
  customer_id: number | null
  /** The door the latest rating came through: `mail` (the signed link), `console` (the portal), `api`. */
  channel: Channel | null
  /** When it was first rated. */
  rated_at: DateTimeString | null
  /** When the rating last changed. */
  rating_updated_at: DateTimeString | null
}

/** A resolution that carries a rating. */
export type SatisfactionRating = TicketResolution & { rating: SatisfactionValue, rated_at: DateTimeString, rating_updated_at: DateTimeString }

export function isRated (resolution: TicketResolution): resolution is SatisfactionRating {
  return resolution.rating !== null
}

/** What the owner sends: the verdict and, optionally, a comment (absent: kept as it was; null or blank: removed). */
export interface SatisfactionInput {
  rating: SatisfactionValue
  comment?: string | null | undefined
}

/** The survey as the administrator worded it (settings `satisfaction.*`). */
export interface SatisfactionSurvey {
  enabled: boolean
  question: string
  good_label: string
  bad_label: string
}

/**
 * Why a resolution cannot be rated (now): surveys are off, the ticket is not
 * closed (it was reopened), a later closing superseded this one, or the
 * ticket was closed before resolutions were counted (imported closed).
 */
export type NotRatableReason = 'disabled' | 'not-closed' | 'superseded' | 'no-resolution'

export const SatisfactionEventType = {
  SatisfactionRated: 'Tickets.SatisfactionRated'
} as const

/** The rating facts an event carries (no ids of the ticket: the event's `ticket` has them). */
export type SatisfactionFacts = Pick<TicketResolution, 'resolution' | 'rating' | 'comment' | 'customer_id' | 'agent_id' | 'category_id' | 'channel' | 'closed_at' | 'rated_at' | 'rating_updated_at'>

/**
 * A resolution was rated, or its rating changed (good <-> bad, or the
 * comment). `satisfaction` is the rating now; `previous` what it was (null
 * for a first rating), so the ticket's history can record the change as is.
 */
export interface SatisfactionRatedEvent extends TicketEventBase {
  type: typeof SatisfactionEventType.SatisfactionRated
  satisfaction: SatisfactionFacts & { rating: SatisfactionValue }
  previous: { rating: SatisfactionValue, comment: string | null } | null
}

export function satisfactionFacts (resolution: TicketResolution): SatisfactionFacts {
  return {
    resolution: resolution.resolution,
    rating: resolution.rating,
    comment: resolution.comment,
    customer_id: resolution.customer_id,
    agent_id: resolution.agent_id,
    category_id: resolution.category_id,
    channel: resolution.channel,
    closed_at: resolution.closed_at,
    rated_at: resolution.rated_at,
    rating_updated_at: resolution.rating_updated_at
  }
}
