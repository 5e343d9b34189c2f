import { PRIORITIES, type Priority } from '../automation/rule-conditions.js'
import { businessMsBetween } from '../sla/business-time.js'
import type { BusinessCalendar } from '../sla/calendar.js'
import type { SlaTargetName, TicketSlaState } from '../sla/sla-store.js'
import { priorityOfRank } from '../tickets/ticket-tags.js'
import { parseDateTime, type DateTimeString } from '../time.js'

/**
 * Reports (docs/reports.md): one fact row per ticket, computed from the
 * ticket, its comments and its resolutions alone (never from the events
 * that led there), so computing it again gives the same row: the rollups
 * are idempotent and can be rebuilt from scratch at any time.
 */

/** The door a ticket came in through; `unknown` for tickets older than the reports. */
export const REPORT_CHANNELS = ['console', 'api', 'mail', 'import', 'cli', 'unknown'] as const
export type ReportChannel = typeof REPORT_CHANNELS[number]

export function isReportChannel (value: unknown): value is ReportChannel {
  return typeof value === 'string' && (REPORT_CHANNELS as readonly string[]).includes(value)
}

/** The priorities a report groups and filters by, lowest first (a ticket's priority now). */
export const REPORT_PRIORITIES = PRIORITIES

/**
 * The order of a report's groups: priorities by rank (low to urgent), other
 * values as text with numbers in numeric order (category and agent ids, channels).
 */
export function compareReportGroups (a: number | string | null, b: number | string | null): number {
  const ra = (PRIORITIES as readonly unknown[]).indexOf(a)
  const rb = (PRIORITIES as readonly unknown[]).indexOf(b)
  if (ra >= 0 && rb >= 0) return ra - rb
  return String(a).localeCompare(String(b), 'en', { numeric: true })
}

/** What the facts of a ticket are computed from (read in batch by the store). */
export interface TicketFactSource {
  /** `priority`: the stored rank (0 low … 3 urgent). */
  ticket: { id: number, category_id: number, assigned_agent_id: number | null, status: number, priority: number, created_at: DateTimeString, updated_at: DateTimeString }
  /** From `ticket_channels`; null when never recorded. */
  channel: string | null
  /** Whether the ticket came from an import (its channel when none was recorded). */
  imported: boolean
  /** Creation times of the ticket's public replies by staff (administrators and agents). */
  staffReplies: readonly DateTimeString[]
  /** The ticket's resolutions (closings), in any order. */
  resolutions: ReadonlyArray<{ resolution: number, closed_at: DateTimeString, rating: string | null }>
  /**
   * The ticket's SLA state and the calendar of the policy in force (null: no
   * policy applies, or no state yet). Business times and SLA attainment come from it.
   */
  sla?: { state: Pick<TicketSlaState, 'targets' | 'announced'>, calendar: BusinessCalendar | null } | null
}

/** A target's verdict for reports: met in time, breached, or neither yet (null: running, paused, or no target). */
export type SlaVerdict = 'met' | 'breached' | null

export interface TicketFact {
  ticket_id: number
  category_id: number
  agent_id: number | null
  channel: ReportChannel
  /** The ticket's priority now. */
  priority: Priority
  status: number
  created_at: DateTimeString
  /** The first public staff reply. */
  first_response_at: DateTimeString | null
  /** The last closing while the ticket is closed; null while it is open or pending. */
  resolved_at: DateTimeString | null
  /** Seconds from creation to the first response (calendar time). */
  first_response_s: number | null
  /** Seconds from creation to `resolved_at` (calendar time). */
  resolution_s: number | null
  /** Public staff replies up to `resolved_at` (all of them while unresolved). */
  replies: number
  /** How many times the ticket was reopened after a closing. */
  reopens: number
  /** The rating of the last resolution while the ticket is closed. */
  rating: 'good' | 'bad' | null
  /** `first_response_s` in business time of the SLA policy's calendar (null without a calendar or a response). */
  first_response_bs: number | null
  /** `resolution_s` in business time of the SLA policy's calendar. */
  resolution_bs: number | null
  /** SLA attainment of each target (docs/reports.md#sla-attainment). */
  sla_first_response: SlaVerdict
  sla_next_response: SlaVerdict
  sla_resolution: SlaVerdict
}

/**
 * A target's verdict from the stored SLA state: breached when it was judged
 * late (or its breach was announced for its current due time, or a next
 * response wait went past the target); met when it was met in time (next
 * response: at least one wait, every one answered in time, none open).
 */
export function slaVerdict (state: Pick<TicketSlaState, 'targets' | 'announced'>, target: SlaTargetName): SlaVerdict {
  const record = state.targets[target]
  if (record === null || record === undefined) return null
  const told = state.announced[target]
  const announced = told?.breach === true && record.due_at !== null && told.due_at === record.due_at
  if (target === 'next_response') {
    if ((record.breached_cycles ?? 0) > 0 || record.breached || announced) return 'breached'
    return (record.cycles ?? 0) > 0 && record.state !== 'running' && record.state !== 'paused' ? 'met' : null
  }
  if (record.breached || announced) return 'breached'
  return record.state === 'met' ? 'met' : null
}

const CLOSED = 3
const seconds = (from: DateTimeString, to: DateTimeString): number => Math.max(0, Math.round((parseDateTime(to) - parseDateTime(from)) / 1000))

/** The fact row of one ticket (docs/reports.md defines each column). */
export function ticketFact (source: TicketFactSource): TicketFact {
  const { ticket } = source
  const replies = [...source.staffReplies].sort()
  const resolutions = [...source.resolutions].sort((a, b) => a.resolution - b.resolution)
  const last = resolutions.at(-1)
  const closed = ticket.status === CLOSED
  // A ticket imported (or closed before migration 0030) as closed has no resolution: it was resolved at its last update.
  const resolvedAt = closed ? (last?.closed_at ?? ticket.updated_at) : null
  const firstResponse = replies[0] ?? null
  const channel: ReportChannel = isReportChannel(source.channel) ? source.channel : source.imported ? 'import' : 'unknown'
  return {
    ticket_id: ticket.id,
    category_id: ticket.category_id,
    agent_id: ticket.assigned_agent_id,
    channel,
    priority: priorityOfRank(ticket.priority),
    status: ticket.status,
    created_at: ticket.created_at,
    first_response_at: firstResponse,
    resolved_at: resolvedAt,
    first_response_s: firstResponse === null ? null : seconds(ticket.created_at, firstResponse),
    resolution_s: resolvedAt === null ? null : seconds(ticket.created_at, resolvedAt),
    replies: resolvedAt === null ? replies.length : replies.filter((at) => at <= resolvedAt).length,
    reopens: Math.max(0, resolutions.length - (closed ? 1 : 0)),
    rating: closed && (last?.rating === 'good' || last?.rating === 'bad') ? last.rating : null,
    first_response_bs: firstResponse === null ? null : businessSeconds(source, ticket.created_at, firstResponse),
    resolution_bs: resolvedAt === null ? null : businessSeconds(source, ticket.created_at, resolvedAt),
    sla_first_response: source.sla == null ? null : slaVerdict(source.sla.state, 'first_response'),
    sla_next_response: source.sla == null ? null : slaVerdict(source.sla.state, 'next_response'),
    sla_resolution: source.sla == null ? null : slaVerdict(source.sla.state, 'resolution')
  }
}

/** Business seconds between two instants on the ticket's SLA calendar; null without one. */
function businessSeconds (source: TicketFactSource, from: DateTimeString, to: DateTimeString): number | null {
  const calendar = source.sla?.calendar ?? null
  if (calendar === null || to <= from) return calendar === null ? null : 0
  return Math.round(businessMsBetween(calendar, new Date(parseDateTime(from)), new Date(parseDateTime(to))) / 1000)
}

/** The key of an hourly rollup row. `agent_id` 0: unassigned. */
export interface HourlyKey { hour: DateTimeString, category_id: number, agent_id: number, channel: string, priority: string }

export const HOURLY_MEASURES = [
  'created', 'first_responded', 'first_response_s', 'resolved', 'resolution_s', 'replies', 'reopened', 'reopens', 'rated_good', 'rated_bad',
  'sla_first_response_met', 'sla_first_response_breached', 'sla_next_response_met', 'sla_next_response_breached',
  'sla_resolution_met', 'sla_resolution_breached'
] as const
export type HourlyMeasure = typeof HOURLY_MEASURES[number]
export type HourlyRow = HourlyKey & Record<HourlyMeasure, number>

/** `YYYY-MM-DD HH:00:00`: the UTC hour a time falls in. */
export function hourOf (at: DateTimeString): DateTimeString {
  return `${at.slice(0, 13)}:00:00`
}

export function hourlyKeyString (key: HourlyKey): string {
  return `${key.hour}|${key.category_id}|${key.agent_id}|${key.channel}|${key.priority}`
}

function emptyMeasures (): Record<HourlyMeasure, number> {
  return Object.fromEntries(HOURLY_MEASURES.map((m) => [m, 0])) as Record<HourlyMeasure, number>
}

/**
 * What one ticket adds to the hourly rollup: at its creation hour (created,
 * first responses) and at its resolution hour (resolved, resolution time,
 * replies, reopens, rating), under its current category, agent, channel and priority.
 */
export function hourlyContributions (fact: TicketFact): HourlyRow[] {
  const base = { category_id: fact.category_id, agent_id: fact.agent_id ?? 0, channel: fact.channel, priority: fact.priority }
  const created: HourlyRow = { ...base, hour: hourOf(fact.created_at), ...emptyMeasures(), created: 1 }
  if (fact.first_response_s !== null) {
    created.first_responded = 1
    created.first_response_s = fact.first_response_s
  }
  // SLA attainment counts at creation, like first responses: the targets of the tickets created in a range.
  for (const target of ['first_response', 'next_response', 'resolution'] as const) {
    const verdict = fact[`sla_${target}`]
    if (verdict !== null) created[`sla_${target}_${verdict}`] = 1
  }
  if (fact.resolved_at === null || fact.resolution_s === null) return [created]
  const resolved: HourlyRow = {
    ...base,
    hour: hourOf(fact.resolved_at),
    ...emptyMeasures(),
    resolved: 1,
    resolution_s: fact.resolution_s,
    replies: fact.replies,
    reopened: fact.reopens > 0 ? 1 : 0,
    reopens: fact.reopens,
    rated_good: fact.rating === 'good' ? 1 : 0,
    rated_bad: fact.rating === 'bad' ? 1 : 0
  }
  return [created, resolved]
}

/**
 * The change to the hourly rollup when a ticket's facts go from `before` to
 * `after` (either null: created, deleted): rows whose measures all cancel out
 * are left out. Summed per key.
 */
export function hourlyDelta (before: readonly TicketFact[], after: readonly TicketFact[]): HourlyRow[] {
  const rows = new Map<string, HourlyRow>()
  const add = (fact: TicketFact, sign: 1 | -1): void => {
    for (const row of hourlyContributions(fact)) {
      const key = hourlyKeyString(row)
      const sum = rows.get(key) ?? { hour: row.hour, category_id: row.category_id, agent_id: row.agent_id, channel: row.channel, priority: row.priority, ...emptyMeasures() }
      for (const m of HOURLY_MEASURES) sum[m] += sign * row[m]
      rows.set(key, sum)
    }
  }
  for (const fact of before) add(fact, -1)
  for (const fact of after) add(fact, 1)
  return [...rows.values()].filter((row) => HOURLY_MEASURES.some((m) => row[m] !== 0))
}

/** Two facts are the same row. */
export function sameFact (a: TicketFact, b: TicketFact): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
