import { ValidationError } from '../errors.js'
import { businessMsBetween } from '../sla/business-time.js'
import type { BusinessCalendar } from '../sla/calendar.js'

/**
 * The time conditions of automations (rules run by a recurring job rather
 * than on a change): "pending for 7 days", "open and unassigned for an hour of
 * business time", "a due time passed".
 */
export const TIME_ANCHORS = ['created', 'updated', 'status_changed', 'assigned', 'due'] as const
export type TimeAnchor = typeof TIME_ANCHORS[number]

export interface TimeCondition {
  /** The instant measured from: the ticket's creation, last update, last status change, last assignment, or its next SLA due time. */
  anchor: TimeAnchor
  /** At least this many hours have passed since the anchor (0 with `due`: the due time has passed). */
  hours: number
  /** Count business hours of the ticket's calendar instead of calendar hours. */
  business: boolean
}

/** A ticket's instants, as the time conditions read them (ISO strings; null when it has none). */
export type TicketInstants = Record<TimeAnchor, string | null>

export const MAX_TIME_HOURS = 24 * 366

/** Validates a time condition; throws a ValidationError keyed `time_condition.hours` and so on. */
export function timeCondition (input: unknown, key = 'time_condition'): TimeCondition {
  if (typeof input !== 'object' || input === null) throw ValidationError.field(key, 'The time condition must be an object with anchor, hours and business.')
  const { anchor, hours, business } = input as Record<string, unknown>
  if (!(TIME_ANCHORS as readonly unknown[]).includes(anchor)) throw ValidationError.field(`${key}.anchor`, `The anchor must be one of ${TIME_ANCHORS.join(', ')}.`)
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > MAX_TIME_HOURS || Math.round(hours * 60) !== hours * 60) {
    throw ValidationError.field(`${key}.hours`, `The hours must be a whole number of minutes from 0 to ${MAX_TIME_HOURS} hours.`)
  }
  if (business !== undefined && typeof business !== 'boolean') throw ValidationError.field(`${key}.business`, 'business must be true or false.')
  return { anchor: anchor as TimeAnchor, hours, business: business === true }
}

/**
 * The latest anchor instant that can satisfy the condition at `now`: the
 * automation's query selects `anchor <= cutoff` on an index, so a run costs
 * what is due, not what is open. Business time never runs faster than the
 * clock, so for business hours this is a superset the caller narrows with
 * `timeConditionHolds`.
 */
export function timeConditionCutoff (condition: TimeCondition, now: Date): Date {
  return new Date(now.getTime() - condition.hours * 3_600_000)
}

/** Whether the condition holds for the ticket at `now` (business hours measured on `calendar`; a missing calendar counts every hour). */
export function timeConditionHolds (condition: TimeCondition, instants: TicketInstants, now: Date, calendar: BusinessCalendar | null): boolean {
  const anchor = instants[condition.anchor]
  if (anchor === null) return false
  const from = new Date(anchor)
  if (from.getTime() > now.getTime()) return false
  const elapsed = condition.business && calendar !== null ? businessMsBetween(calendar, from, now) : now.getTime() - from.getTime()
  return elapsed >= condition.hours * 3_600_000
}

/** What an automation remembers of a ticket it fired on: the anchor instant it measured from. */
export interface AutomationMark {
  anchor_at: string
}

/**
 * Whether an automation fires on a ticket now (its other conditions already
 * hold): the time condition holds and it has not fired on this anchor yet.
 * It fires once per ticket until its condition re-arms: the anchor moves
 * (the ticket left Pending and came back, was updated again, got a new due
 * time), which makes a new mark. A rule whose action resets its own anchor
 * (auto-close sets the status) is therefore not re-fired by the next run.
 */
export function automationFires (condition: TimeCondition, instants: TicketInstants, now: Date, calendar: BusinessCalendar | null, mark: AutomationMark | null): boolean {
  const anchor = instants[condition.anchor]
  if (anchor === null) return false
  if (mark !== null && Date.parse(mark.anchor_at) === Date.parse(anchor)) return false
  return timeConditionHolds(condition, instants, now, calendar)
}
