import type { LoggedEvent } from '../event-log/event-log.js'
import type { DateTimeString } from '../time.js'
import { canSeeComment, canSeeTicket, type TicketScope } from '../tickets/ticket-policy.js'
import type { Comment } from '../tickets/comment.js'
import type { Ticket } from '../tickets/ticket.js'
import { canSeeSatisfaction } from '../satisfaction/satisfaction-policy.js'
import { isSatisfactionValue, SatisfactionEventType, type SatisfactionValue } from '../satisfaction/satisfaction.js'
import { isSlaEvent } from '../sla/sla-events.js'

/** One committed event as the stream reads it from the event log. */
export type StreamSourceEvent = LoggedEvent

/** Who is listening: a user and the ticket/comment scope of the lists (CONTRACT §3). */
export interface StreamViewer {
  userId: number
  scope: TicketScope
}

/** The ticket fields a `ticket` stream event carries: enough to update a list row or refetch. */
export type StreamTicket = Pick<Ticket, 'id' | 'title' | 'status' | 'priority' | 'private' | 'user_id' | 'category_id' | 'assigned_agent_id' | 'created_at' | 'updated_at'>
export type StreamComment = Pick<Comment, 'id' | 'type' | 'private'> & { user_id: number | null, preview?: string }

/** `event: ticket`: a change to a ticket the viewer may see (its state after the change). */
export interface TicketStreamData {
  type: string
  actor_id: number | null
  created_at: DateTimeString
  ticket: StreamTicket
  comment?: StreamComment
  /** `Tickets.TicketUpdated`: the fields that changed (`tags` included; the tags themselves are staff's, read them by id). */
  changes?: string[]
  /** `Tickets.SatisfactionRated`: the rating now (only the owner and staff receive it). */
  satisfaction?: StreamSatisfaction
}

export interface StreamSatisfaction { resolution: number, rating: SatisfactionValue, comment: string | null }

function satisfactionOf (event: StreamSourceEvent): StreamSatisfaction | null {
  if (event.type !== SatisfactionEventType.SatisfactionRated) return null
  const rated = event.payload.satisfaction as Partial<StreamSatisfaction> | undefined
  if (typeof rated?.resolution !== 'number' || !isSatisfactionValue(rated.rating)) return null
  return { resolution: rated.resolution, rating: rated.rating, comment: typeof rated.comment === 'string' ? rated.comment : null }
}

type TicketFacts = Pick<Ticket, 'id' | 'user_id' | 'private' | 'category_id' | 'assigned_agent_id'> & Partial<Ticket>

function ticketOf (event: StreamSourceEvent): TicketFacts | null {
  if (!event.type.startsWith('Tickets.')) return null
  const ticket = event.payload.ticket as TicketFacts | undefined
  return typeof ticket?.id === 'number' && typeof ticket.user_id === 'number' ? ticket : null
}

function commentOf (event: StreamSourceEvent): StreamComment | null {
  const comment = event.payload.comment as (StreamComment & Partial<Comment>) | undefined
  if (typeof comment?.id !== 'number' || typeof comment.type !== 'number') return null
  return {
    id: comment.id,
    type: comment.type,
    private: comment.private === true,
    user_id: comment.user_id ?? null,
    ...(typeof comment.preview === 'string' ? { preview: comment.preview } : {})
  }
}

/**
 * Who receives a ticket change on the stream: the viewers who may see the
 * ticket in their lists (`canSeeTicket`), and for a comment event those who may
 * also see the comment (`canSeeComment`: notes only to staff, private replies
 * to staff and the ticket's owner); a rating (`Tickets.SatisfactionRated`)
 * only the owner and staff (`canSeeSatisfaction`). Events that are not about a
 * ticket are never streamed as ticket changes.
 */
export function receivesTicketChange (event: StreamSourceEvent, viewer: StreamViewer): boolean {
  const ticket = ticketOf(event)
  if (ticket === null || !canSeeTicket(viewer.scope.tickets, ticket)) return false
  // A rating is between the ticket's owner and staff, even on a public ticket.
  if (event.type === SatisfactionEventType.SatisfactionRated) return canSeeSatisfaction(viewer.scope.comments, ticket)
  // SLA warnings and breaches are staff business (those who see notes).
  if (isSlaEvent(event.type)) return 'all' in viewer.scope.comments
  if (event.payload.comment === undefined) return true
  // A comment event whose comment cannot be judged is withheld, never shown by default.
  const comment = commentOf(event)
  return comment !== null && canSeeComment(viewer.scope.comments, comment, ticket)
}

/** What a `ticket` stream event carries: the same for every receiver, so it is built (and serialised) once. Null: not a ticket event. */
export function ticketStreamData (event: StreamSourceEvent): TicketStreamData | null {
  const ticket = ticketOf(event)
  if (ticket === null) return null
  const comment = event.payload.comment !== undefined ? commentOf(event) : null
  const satisfaction = satisfactionOf(event)
  return {
    type: event.type,
    actor_id: event.actor_id,
    created_at: event.created_at,
    ticket: {
      id: ticket.id,
      title: ticket.title ?? '',
      status: ticket.status ?? 1,
      priority: ticket.priority ?? 'normal',
      private: ticket.private,
      user_id: ticket.user_id,
      category_id: ticket.category_id,
      assigned_agent_id: ticket.assigned_agent_id,
      created_at: ticket.created_at ?? event.created_at,
      updated_at: ticket.updated_at ?? event.created_at
    },
    ...(comment !== null ? { comment } : {}),
    ...(Array.isArray(event.payload.changes) ? { changes: (event.payload.changes as unknown[]).filter((c): c is string => typeof c === 'string') } : {}),
    ...(satisfaction !== null ? { satisfaction } : {})
  }
}

/** The `ticket` stream event `viewer` receives for `event`, or null. */
export function ticketChangeFor (event: StreamSourceEvent, viewer: StreamViewer): TicketStreamData | null {
  return receivesTicketChange(event, viewer) ? ticketStreamData(event) : null
}
