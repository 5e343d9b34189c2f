import { TicketStatus } from '../tickets/ticket.js'
import { formatDateTime, type DateTimeString } from '../time.js'
import type { SlaEvent, SlaTimeline } from './sla-clock.js'
import { evaluateTicketSla, matchPolicy, nextDueOf, policyKey, ticketFacts, type SlaConfig, type SlaEvaluation, type SlaTicket } from './sla-evaluation.js'
import { SLA_TARGETS, type TicketSlaState } from './sla-store.js'

/**
 * The SLA state of imported tickets (docs/sla.md, "Imported tickets"): built
 * from the imported times, in the transaction of the import batch. Pure.
 */

/** A reply of an imported conversation: by staff (an agent of the file) or by the customer. */
export interface ImportedReply { at: DateTimeString, staff: boolean }

/** What the import knows of a ticket's conversation besides the ticket row. */
export interface ImportedConversation {
  /** Replies (notes are none), in any order. */
  replies: readonly ImportedReply[]
  /** The latest time of the conversation (any comment, notes too); the ticket's status is taken to hold from then on. */
  last_activity_at: DateTimeString | null
}

/**
 * The SLA state of an imported ticket at `now` (the import's time).
 *
 * - With no state yet (a ticket new in this import): the timeline starts at
 *   the imported `created_at`, Open, under the policy that matches; the
 *   imported replies are its `staff_reply` / `customer_reply` events at their
 *   own times; a ticket imported Pending or Closed changes to that status at
 *   its last activity (the later of its `updated_at` and its last comment).
 *   So the first response is met at the first staff reply, a closed ticket's
 *   resolution at its closing, and nothing runs for a closed ticket.
 * - With a state (a ticket of an earlier import, or a live one, that gets
 *   imported comments): the replies are added to its timeline at their times.
 *
 * A new ticket's timeline records `imported_at` (= `now`): a running target
 * due at or before it is recorded as announced (`imported: true`), now and at
 * every later evaluation (`evaluateTicketSla`), so its breach is history, not
 * news: the escalation job never notifies it and it does not hold the ticket
 * in the scan (`sla_next_due_at` skips it). For a ticket that had a state,
 * the same holds for the past due times the imported replies made.
 */
export function importedTicketSla (
  config: SlaConfig, previous: TicketSlaState | null, ticket: SlaTicket, email: string | null | undefined,
  conversation: ImportedConversation, now: Date
): SlaEvaluation {
  const at = formatDateTime(now)
  const replies: SlaEvent[] = [...conversation.replies]
    .sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0)
    .map((reply) => ({ type: reply.staff ? 'staff_reply' : 'customer_reply', at: reply.at }))
  let seed: TicketSlaState
  if (previous === null) {
    const policy = matchPolicy(config, ticketFacts(ticket, email))
    const timeline: SlaTimeline = { created_at: ticket.created_at, status: TicketStatus.Open, policy: policyKey(policy?.id ?? null), events: replies, imported_at: at }
    if (ticket.status !== TicketStatus.Open) {
      const last = latest(ticket.created_at, latest(ticket.updated_at, conversation.last_activity_at ?? ticket.created_at))
      // Not after the import: a status the ticket already has.
      const since = latest(last, at) === last ? at : last
      timeline.events = [...replies, { type: 'status', at: since, status: ticket.status }]
    }
    seed = { ticket_id: ticket.id, policy_id: policy?.id ?? null, timeline, targets: {}, paused_minutes: 0, announced: {}, evaluated_at: at }
  } else {
    seed = { ...previous, timeline: { ...previous.timeline, events: [...previous.timeline.events, ...replies] } }
  }
  const result = evaluateTicketSla(config, seed, ticket, email, null, now)
  const { state } = result
  // New tickets: `imported_at` keeps their history quiet, now and at every later evaluation (a recalculation after a
  // policy change included). A ticket that had a state: only the due times the import's replies made and that are already past.
  if (previous !== null) {
    for (const name of SLA_TARGETS) {
      const target = state.targets[name]
      if (target === null || target === undefined || target.state !== 'running' || target.due_at === null || target.due_at > at) continue
      if (previous.targets[name]?.due_at === target.due_at) continue
      const told = state.announced[name]
      if (told !== undefined && told.due_at === target.due_at && told.breach) continue
      state.announced = { ...state.announced, [name]: { due_at: target.due_at, warning: true, breach: true, imported: true } }
    }
  }
  return { ...result, changed: true, due: { ...result.due, sla_next_due_at: nextDueOf(state) } }
}

/** The later of two UTC datetimes (their text order is their time order). */
function latest (a: DateTimeString, b: DateTimeString): DateTimeString {
  return a < b ? b : a
}
