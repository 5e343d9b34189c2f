import { TicketStatus } from '../tickets/ticket.js'
import { formatDateTime, parseDateTime, type DateTimeString } from '../time.js'
import type { BusinessCalendar } from './calendar.js'
import { addBusinessMs, businessMsBetween } from './business-time.js'

/**
 * SLA clocks as a function of a ticket's timeline (docs/sla.md). Nothing is
 * stored between two evaluations: the elapsed and paused time come from the
 * timeline each time, so a change of policy keeps them (GLPI #15605) and a
 * re-evaluation after any event gives the same answer as the first.
 */

/** Targets of a policy, in business minutes; a missing or null target does not apply. */
export interface SlaTargets {
  first_response_minutes?: number | null
  next_response_minutes?: number | null
  resolution_minutes?: number | null
}

/** What the clock needs of a policy: its calendar and its targets. */
export interface SlaPolicyTerms {
  calendar: BusinessCalendar
  targets: SlaTargets
}

/** One thing that happened to the ticket. `at` is a UTC `YYYY-MM-DD HH:MM:SS` (CONTRACT §13). */
export type SlaEvent =
  | { type: 'status', at: DateTimeString, status: number }
  /** A public reply by staff (internal notes are no reply). */
  | { type: 'staff_reply', at: DateTimeString }
  /** A reply by the customer (the ticket's opening message is not one). */
  | { type: 'customer_reply', at: DateTimeString }
  /** Another policy applies from `at` on (its key in `policies`). */
  | { type: 'policy', at: DateTimeString, policy: string }

/**
 * A ticket's history as the clocks read it: plain JSON, meant to be stored or
 * rebuilt from the ticket's history. Events are taken in time order; events
 * of the same second keep their order in the list.
 */
export interface SlaTimeline {
  created_at: DateTimeString
  /** The status the ticket was created with. */
  status: number
  /** The policy that applied at creation (its key in `policies`). */
  policy: string
  events: SlaEvent[]
  /**
   * When the ticket was imported (its timeline built from the file): a due
   * time at or before it is history, never announced. The clock ignores it.
   */
  imported_at?: DateTimeString
}

export interface SlaClockInput {
  timeline: SlaTimeline
  /** The terms of every policy the timeline names, by key. */
  policies: Readonly<Record<string, SlaPolicyTerms>>
  /** Statuses in which every clock stops and pause time accrues; Pending by default. */
  paused_statuses?: readonly number[]
  /** Statuses in which the ticket counts as resolved (the clocks stop, resolution is met); Closed by default. */
  closed_statuses?: readonly number[]
  /** The instant to evaluate at; events after it are ignored (so a past instant replays the clock then). */
  now: Date
}

/**
 * - `running`: counting now; `due_at` is when it falls due (in the past when breached).
 * - `paused`: the ticket is in a paused status; `due_at` is null until it resumes.
 * - `met`: done (`met_at`); `breached` tells whether it was late.
 * - `stopped`: ended without being met (the ticket was closed unanswered).
 * - `idle`: next response only: no customer reply awaits an answer, and none has yet.
 */
export type SlaTargetState = 'running' | 'paused' | 'met' | 'stopped' | 'idle'

export interface SlaTargetClock {
  target_minutes: number
  state: SlaTargetState
  /** When it falls (fell) due; set only while `running`. This is what the ticket stores as `*_due_at`. */
  due_at: DateTimeString | null
  met_at: DateTimeString | null
  /** More business time was used than the target allows (while running: `due_at` has passed). */
  breached: boolean
  /** Business minutes counted (rounded down). */
  elapsed_minutes: number
  /** Business minutes left before it falls due (rounded up; 0 once due). */
  remaining_minutes: number
  /** Business minutes past the target (rounded down; 0 unless breached). */
  overdue_minutes: number
}

export interface SlaNextResponseClock extends SlaTargetClock {
  /** Customer replies that started a wait for an agent (the current one included). */
  cycles: number
  /** How many of those waits went past the target (the current one included once breached). */
  breached_cycles: number
}

export interface SlaClock {
  first_response: SlaTargetClock | null
  next_response: SlaNextResponseClock | null
  resolution: SlaTargetClock | null
  /** The ticket's status at `now`. */
  status: number
  /** The policy in force at `now` (its key): its targets say which clocks exist and judge the running ones. */
  policy: string
  /** Business minutes spent in paused statuses since creation (rounded down), under each period's calendar. */
  paused_minutes: number
}

const MINUTE = 60_000

interface Segment {
  start: number
  end: number
  status: number
  calendar: BusinessCalendar
  running: boolean
  paused: boolean
}

interface Cycle { start: number, end: number | null, met: boolean }

interface Reading {
  segments: Segment[]
  status: number
  policy: string
  /** The calendar in force at `now`, and whether the clocks run or are paused then. */
  calendar: BusinessCalendar
  running: boolean
  paused: boolean
  /** When the ticket was last closed, while it is closed at `now`. */
  closedSince: number | null
  /** The policies in force, from each instant on (the first from creation). */
  policies: Array<{ at: number, terms: SlaPolicyTerms }>
  firstStaffReply: number | null
  cycles: Cycle[]
}

function terms (policies: SlaClockInput['policies'], key: string): SlaPolicyTerms {
  const found = Object.hasOwn(policies, key) ? policies[key] : undefined
  if (found === undefined) throw new RangeError(`The timeline names the policy "${key}", which is not given.`)
  return found
}

/** Walks the timeline once: the status/policy segments up to `now`, the first staff reply and the next-response waits. */
function read (input: SlaClockInput, created: number, now: number): Reading {
  const paused = new Set(input.paused_statuses ?? [TicketStatus.Pending])
  const closed = new Set(input.closed_statuses ?? [TicketStatus.Closed])
  const events = input.timeline.events
    .map((event, index) => ({ event, index, at: Math.max(parseDateTime(event.at), created) }))
    .filter((entry) => entry.at <= now)
    .sort((a, b) => a.at - b.at || a.index - b.index)

  const segments: Segment[] = []
  let status = input.timeline.status
  let policy = input.timeline.policy
  let calendar = terms(input.policies, policy).calendar
  const policies = [{ at: created, terms: terms(input.policies, policy) }]
  let start = created
  let closedSince: number | null = closed.has(status) ? created : null
  let firstStaffReply: number | null = null
  const cycles: Cycle[] = []
  let open: Cycle | null = null

  const cut = (at: number): void => {
    if (at > start) {
      segments.push({ start, end: at, status, calendar, running: !paused.has(status) && !closed.has(status), paused: paused.has(status) })
    }
    start = at
  }

  for (const { event, at } of events) {
    switch (event.type) {
      case 'status':
        if (event.status === status) break
        cut(at)
        if (closed.has(event.status) && !closed.has(status)) {
          closedSince = at
          // Closing ends a wait for an agent: nobody is expected to answer a resolved ticket (Chatwoot #10178).
          if (open !== null) { open.end = at; open = null }
        } else if (!closed.has(event.status)) {
          closedSince = null
        }
        status = event.status
        break
      case 'policy':
        if (event.policy === policy) break
        cut(at)
        policy = event.policy
        calendar = terms(input.policies, policy).calendar
        policies.push({ at, terms: terms(input.policies, policy) })
        break
      case 'staff_reply':
        if (firstStaffReply === null) firstStaffReply = at
        if (open !== null) { open.end = at; open.met = true; open = null }
        break
      case 'customer_reply':
        // Before the first staff reply the first-response clock is the one that runs (Zammad #5177).
        if (firstStaffReply !== null && open === null) {
          open = { start: at, end: null, met: false }
          cycles.push(open)
        }
        break
    }
  }
  cut(now)
  return {
    segments,
    status,
    policy,
    calendar,
    running: !paused.has(status) && !closed.has(status),
    paused: paused.has(status),
    closedSince,
    policies,
    firstStaffReply,
    cycles
  }
}

/** Running business time in [from, to), and the instant the `target` was reached in it (null if not). */
function measure (segments: Segment[], from: number, to: number, target: number): { used: number, reachedAt: number | null } {
  let used = 0
  let reachedAt: number | null = null
  for (const segment of segments) {
    if (!segment.running || segment.end <= from || segment.start >= to) continue
    const start = Math.max(segment.start, from)
    const end = Math.min(segment.end, to)
    const ms = businessMsBetween(segment.calendar, new Date(start), new Date(end))
    if (reachedAt === null && used + ms >= target) {
      reachedAt = addBusinessMs(segment.calendar, new Date(start), target - used).getTime()
    }
    used += ms
  }
  return { used, reachedAt }
}

function targetMs (minutes: number | null | undefined): number | null {
  if (minutes === null || minutes === undefined) return null
  if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError(`A target must be a number of minutes >= 0, not ${minutes}.`)
  return Math.round(minutes * MINUTE)
}

type TargetName = 'first_response_minutes' | 'next_response_minutes' | 'resolution_minutes'

/**
 * The target that judges a clock: the one of the policy in force when it was
 * met or stopped (a verdict does not change with a later policy), the current
 * one while it runs, or when the policy of the time had none.
 */
function targetAt (reading: Reading, name: TargetName, at: number | null, current: number): number {
  if (at === null) return current
  let found: number | null | undefined
  for (const change of reading.policies) if (change.at <= at) found = change.terms.targets[name]
  return found ?? current
}

/**
 * One target's clock over [from, end ?? now): `end` is when it was met or
 * stopped; with no `end`, the state at `now` decides whether it runs.
 */
function targetClock (
  reading: Reading, now: number, name: TargetName, current: number, from: number,
  end: { at: number, met: boolean } | null
): SlaTargetClock {
  const minutes = targetAt(reading, name, end?.at ?? null, current)
  const target = targetMs(minutes)!
  const until = end?.at ?? now
  const { used, reachedAt } = measure(reading.segments, from, until, target)
  let state: SlaTargetState
  let due: number | null = null
  if (end !== null) state = end.met ? 'met' : 'stopped'
  else if (reading.running) {
    state = 'running'
    due = reachedAt ?? addBusinessMs(reading.calendar, new Date(now), target - used).getTime()
  } else state = reading.paused ? 'paused' : 'stopped'
  return {
    target_minutes: minutes,
    state,
    due_at: due === null ? null : formatDateTime(new Date(due)),
    met_at: end?.met === true ? formatDateTime(new Date(end.at)) : null,
    breached: used > target,
    elapsed_minutes: Math.floor(used / MINUTE),
    remaining_minutes: Math.ceil(Math.max(0, target - used) / MINUTE),
    overdue_minutes: Math.floor(Math.max(0, used - target) / MINUTE)
  }
}

/**
 * The SLA clocks of a ticket at `now` (docs/sla.md):
 * - first response runs from creation to the first staff reply;
 * - next response runs from a customer reply that follows a staff reply to
 *   the next staff reply; closing the ticket ends the wait (`stopped`), and
 *   customer replies before the first staff reply start none (the first
 *   response covers them);
 * - resolution runs from creation while the ticket is not closed: closing
 *   meets it, reopening resumes it with the time already used (it
 *   accumulates across reopenings, time spent closed does not count);
 * - every clock stands still in a paused status and outside business hours,
 *   measured with the calendar of the policy in force at each moment;
 * - the policy in force at `now` says which clocks exist and judges the
 *   running ones; a clock met or stopped keeps the verdict of the policy in
 *   force at that moment.
 */
export function slaClock (input: SlaClockInput): SlaClock {
  const created = parseDateTime(input.timeline.created_at)
  const now = Math.max(input.now.getTime(), created)
  const reading = read(input, created, now)
  const targets = terms(input.policies, reading.policy).targets

  let paused = 0
  for (const segment of reading.segments) {
    if (segment.paused) paused += businessMsBetween(segment.calendar, new Date(segment.start), new Date(segment.end))
  }

  const first = targets.first_response_minutes ?? null
  const next = targets.next_response_minutes ?? null
  const resolution = targets.resolution_minutes ?? null

  return {
    first_response: first === null
      ? null
      : targetClock(reading, now, 'first_response_minutes', first, created,
        reading.firstStaffReply === null ? null : { at: reading.firstStaffReply, met: true }),
    next_response: next === null ? null : nextResponseClock(reading, now, next),
    resolution: resolution === null
      ? null
      : targetClock(reading, now, 'resolution_minutes', resolution, created,
        reading.closedSince === null ? null : { at: reading.closedSince, met: true }),
    status: reading.status,
    policy: reading.policy,
    paused_minutes: Math.floor(paused / MINUTE)
  }
}

function nextResponseClock (reading: Reading, now: number, minutes: number): SlaNextResponseClock {
  let breachedCycles = 0
  let last: SlaTargetClock | null = null
  for (const cycle of reading.cycles) {
    last = targetClock(reading, now, 'next_response_minutes', minutes, cycle.start, cycle.end === null ? null : { at: cycle.end, met: cycle.met })
    if (last.breached) breachedCycles++
  }
  const clock = last ?? {
    target_minutes: minutes,
    state: 'idle' as const,
    due_at: null,
    met_at: null,
    breached: false,
    elapsed_minutes: 0,
    remaining_minutes: minutes,
    overdue_minutes: 0
  }
  return { ...clock, cycles: reading.cycles.length, breached_cycles: breachedCycles }
}

/** The due times a ticket stores (`first_response_due_at`, ...): each target's `due_at`, null when it does not run. */
export function slaDueTimes (clock: SlaClock): {
  first_response_due_at: DateTimeString | null
  next_response_due_at: DateTimeString | null
  resolution_due_at: DateTimeString | null
} {
  return {
    first_response_due_at: clock.first_response?.due_at ?? null,
    next_response_due_at: clock.next_response?.due_at ?? null,
    resolution_due_at: clock.resolution?.due_at ?? null
  }
}
