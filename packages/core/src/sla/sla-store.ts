import type { ListQuery, Page } from '../list/list-query.js'
import type { DateTimeString } from '../time.js'
import type { WithIncludes } from '../store.js'
import type { BusinessCalendar } from './calendar.js'
import type { SlaTimeline, SlaTargetState } from './sla-clock.js'
import type { SlaCalendar, SlaPolicy } from './sla-policy.js'

export const SLA_TARGETS = ['first_response', 'next_response', 'resolution'] as const
export type SlaTargetName = typeof SLA_TARGETS[number]

/** One target of a ticket as last evaluated: met, breached, by how much. */
export interface SlaTargetRecord {
  state: SlaTargetState
  target_minutes: number
  due_at: DateTimeString | null
  met_at: DateTimeString | null
  breached: boolean
  /** Business minutes past the target (0 unless breached). */
  overdue_minutes: number
  /** Next response: waits so far and how many went past the target. */
  cycles?: number
  breached_cycles?: number
}

/** What the escalation job announced for a target's due time (a new due time may be announced again). */
export interface SlaAnnounced {
  due_at: DateTimeString
  warning: boolean
  breach: boolean
  /** Set by an import for a target already past due when imported: recorded, never notified (docs/sla.md). */
  imported?: true
}

/** The SLA state of one ticket (`ticket_sla`): the timeline the clocks read and the last evaluation. */
export interface TicketSlaState {
  ticket_id: number
  /** The policy in force now (null once deleted, until recalculated). */
  policy_id: number | null
  timeline: SlaTimeline
  targets: Partial<Record<SlaTargetName, SlaTargetRecord | null>>
  /** Business minutes spent paused so far, kept across policy changes (GLPI #15605). */
  paused_minutes: number
  announced: Partial<Record<SlaTargetName, SlaAnnounced>>
  evaluated_at: DateTimeString
}

/** The due times a ticket carries (columns of `tickets`). */
export interface TicketSlaDue {
  first_response_due_at: DateTimeString | null
  next_response_due_at: DateTimeString | null
  resolution_due_at: DateTimeString | null
  /** The earliest due time whose breach is still to be announced: what the escalation job scans. */
  sla_next_due_at: DateTimeString | null
}

export type NewSlaCalendar = BusinessCalendar & { name: string }
export type SlaPolicyValues = Omit<SlaPolicy, 'id' | 'position' | 'is_default' | 'created_at' | 'updated_at'>

/** A ticket the escalation job looks at. */
export interface SlaDueTicket extends TicketSlaDue { ticket_id: number }

/** Storage port of SLA calendars, policies and each ticket's SLA state (part of `Store`, same conventions). */
export interface SlaRepository {
  listCalendars(query: ListQuery): Promise<Page<WithIncludes<SlaCalendar>>>
  allCalendars(): Promise<SlaCalendar[]>
  findCalendar(id: number): Promise<SlaCalendar | null>
  createCalendar(calendar: NewSlaCalendar): Promise<SlaCalendar>
  updateCalendar(id: number, calendar: NewSlaCalendar): Promise<SlaCalendar | null>
  /** False when missing. Callers check first that no policy uses it. */
  deleteCalendar(id: number): Promise<boolean>
  /** How many policies use the calendar. */
  policiesUsing(calendarId: number): Promise<number>

  listPolicies(query: ListQuery): Promise<Page<WithIncludes<SlaPolicy>>>
  /** Every policy in matching order (by position, the default last). */
  allPolicies(): Promise<SlaPolicy[]>
  findPolicy(id: number): Promise<SlaPolicy | null>
  /** A new policy placed last before the default one. */
  createPolicy(policy: SlaPolicyValues): Promise<SlaPolicy>
  updatePolicy(id: number, patch: Partial<SlaPolicyValues>): Promise<SlaPolicy | null>
  deletePolicy(id: number): Promise<boolean>
  /** Sets positions 1.. in the order of `ids` (every non-default policy, each once). */
  reorderPolicies(ids: readonly number[]): Promise<void>

  /** The stored states of these tickets (absent ones have none yet). */
  ticketStates(ticketIds: readonly number[]): Promise<Map<number, TicketSlaState>>
  /** Writes the state (insert or replace) and, unless null, the ticket's due-time columns (not its `updated_at`). */
  saveTicketState(state: TicketSlaState, due: TicketSlaDue | null): Promise<void>
  /**
   * `saveTicketState` for many tickets (an import batch): the states in
   * multi-row upserts, the due columns of those whose `due` is not null in
   * one statement per chunk, not one per ticket.
   */
  saveTicketStates(entries: ReadonlyArray<{ state: TicketSlaState, due: TicketSlaDue | null }>): Promise<void>
  /**
   * Tickets whose `sla_next_due_at` is at or before `before`, earliest first,
   * at most `limit`: read through the index on that column, so the cost
   * follows the number due, not the number open.
   */
  dueBefore(before: DateTimeString, limit: number): Promise<SlaDueTicket[]>
  /**
   * Records that `kind` was announced for the ticket's target due at `dueAt`;
   * false when it was already (by this or another instance): announce once.
   */
  claimAnnouncement(entry: { ticket_id: number, target: SlaTargetName, kind: 'warning' | 'breach', due_at: DateTimeString }): Promise<boolean>
  /** Those of these tickets that have no state yet (one query, reading no state). */
  withoutState(ticketIds: readonly number[]): Promise<number[]>
  /**
   * The conversations of these tickets as the clocks read them (tickets of an
   * import that kept no SLA state): each ticket's replies (comments of type
   * Reply) with whether staff wrote them, and its latest comment's time. One
   * query; tickets without comments are absent.
   */
  conversations(ticketIds: readonly number[]): Promise<Map<number, { replies: Array<{ at: DateTimeString, staff: boolean }>, last_activity_at: DateTimeString | null }>>
  /** Ids of tickets that are not closed, above `afterId`, ascending, at most `limit` (recalculation batches). */
  openTicketIds(afterId: number, limit: number, closedStatuses: readonly number[]): Promise<number[]>
}
