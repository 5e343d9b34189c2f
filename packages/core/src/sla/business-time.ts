import { businessCalendar, parseLocalDate, parseLocalTime, WEEKDAYS, type BusinessCalendar } from './calendar.js'
import { DAY, localDay, localDaySpans, localDaysWindow, MINUTE, offsetSpans } from './zone-offsets.js'

/**
 * Business-time arithmetic over a calendar (docs/sla.md). Pure: no clock is
 * read, the caller passes every instant. Instants are `Date`s (UTC); the
 * calendar's hours are local wall-clock times in its zone.
 *
 * - An instant is business time when its local date is no holiday and its
 *   local time of day lies in one of its weekday's [start, end) intervals.
 *   So across a daylight-saving change the hours follow the wall clock:
 *   local times skipped in spring do not exist (an interval that spans the
 *   gap is an hour shorter; one that starts in the gap opens when the clock
 *   jumps past its start), local times repeated in autumn count twice (an
 *   interval spanning the repeated hour is an hour longer).
 * - A due time is the earliest instant at which the business time asked for
 *   has elapsed: inside business hours, or exactly at the end of an interval
 *   (a target that runs out at 17:00 Friday is due at 17:00 Friday, not at
 *   Monday's opening). Adding 0 minutes returns the start as it is.
 * - The calendar is checked first (`businessCalendar`): one without any
 *   business hours is a ValidationError, so every search ends. The walk goes
 *   day by day, and skips whole weeks without holidays or offset changes;
 *   it stops with a RangeError after `SEARCH_LIMIT_DAYS` days in a row with
 *   no business time, which a valid calendar (at most 2,000 holidays) never
 *   reaches.
 * - Assumed of the tz data: an offset changes at most once in four days, and
 *   a local date never goes backwards (true of every zone's current rules).
 */

/** How many days in a row without any business time a search crosses before it gives up (RangeError). */
export const SEARCH_LIMIT_DAYS = 3660

function noBusinessTime (): never {
  throw new RangeError(`The calendar has no business time within ${SEARCH_LIMIT_DAYS} days.`)
}

interface CompiledCalendar {
  zone: string
  /** 24/7 and no holidays: plain calendar-time arithmetic. */
  always: boolean
  /** Per JavaScript weekday (0 = Sunday): [start, end) in minutes since local midnight, adjacent ones merged. */
  week: Array<Array<[number, number]>>
  /** Business milliseconds in a week without holidays or offset changes. */
  weekMs: number
  /** Holiday dates, as days since 1970-01-01. */
  holidays: Set<number>
}

const compiled = new WeakMap<BusinessCalendar, CompiledCalendar>()

/** Checks (ValidationError) and compiles a calendar once per object. */
function compile (calendar: BusinessCalendar): CompiledCalendar {
  let result = compiled.get(calendar)
  if (result !== undefined) return result
  const valid = businessCalendar(calendar)
  const week: Array<Array<[number, number]>> = []
  let weekMinutes = 0
  // WEEKDAYS is Monday-first; JavaScript's getUTCDay is Sunday-first.
  for (let js = 0; js < 7; js++) {
    const name = WEEKDAYS[(js + 6) % 7]!
    const source = valid.twenty_four_seven ? [{ start: '00:00', end: '24:00' }] : valid.hours[name]
    const merged: Array<[number, number]> = []
    for (const interval of source) {
      const start = parseLocalTime(interval.start, false)!
      const end = parseLocalTime(interval.end, true)!
      const last = merged[merged.length - 1]
      if (last !== undefined && last[1] === start) last[1] = end
      else merged.push([start, end])
      weekMinutes += end - start
    }
    week.push(merged)
  }
  const holidays = new Set(valid.holidays.map((holiday) => parseLocalDate(holiday.date)!))
  result = {
    zone: valid.time_zone,
    always: valid.twenty_four_seven && holidays.size === 0,
    week,
    weekMs: weekMinutes * MINUTE,
    holidays
  }
  compiled.set(calendar, result)
  return result
}

function weekday (day: number): number {
  return (((day + 4) % 7) + 7) % 7
}

/** The business intervals of one local date, as sorted, disjoint UTC [start, end) pairs. */
function dayIntervals (calendar: CompiledCalendar, day: number): Array<[number, number]> {
  const hours = calendar.week[weekday(day)]!
  if (hours.length === 0 || calendar.holidays.has(day)) return []
  const midnight = day * DAY
  const spans = localDaySpans(calendar.zone, day)
  const result: Array<[number, number]> = []
  for (const [startMinute, endMinute] of hours) {
    for (const span of spans) {
      const start = Math.max(midnight + startMinute * MINUTE - span.offset, span.start)
      const end = Math.min(midnight + endMinute * MINUTE - span.offset, span.end)
      if (start < end) result.push([start, end])
    }
  }
  if (spans.length === 1) return result
  result.sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const interval of result) {
    const last = merged[merged.length - 1]
    if (last !== undefined && last[1] >= interval[0]) last[1] = Math.max(last[1], interval[1])
    else merged.push(interval)
  }
  return merged
}

/**
 * When the seven local days from `day` hold no holiday and one offset
 * throughout, the instants they span ([first midnight, last midnight) in
 * UTC), during which exactly `weekMs` of business time passes. Else null.
 */
function plainWeek (calendar: CompiledCalendar, day: number): { start: number, end: number } | null {
  for (let d = day; d < day + 7; d++) if (calendar.holidays.has(d)) return null
  const offset = weekOffset(calendar.zone, day)
  return offset === null ? null : { start: day * DAY - offset, end: (day + 7) * DAY - offset }
}

const weekOffsets = new Map<string, Map<number, number | null>>()

/** The one offset of the seven local days from `day`, or null when it changes among them. Cached per zone. */
function weekOffset (zone: string, day: number): number | null {
  let byDay = weekOffsets.get(zone)
  if (byDay === undefined) weekOffsets.set(zone, byDay = new Map())
  let offset = byDay.get(day)
  if (offset === undefined) {
    if (byDay.size >= 20_000) byDay.clear()
    const window = localDaysWindow(day, 7)
    const spans = offsetSpans(zone, window.from, window.to)
    offset = spans.length === 1 ? spans[0]!.offset : null
    byDay.set(day, offset)
  }
  return offset
}

function addMs (calendar: CompiledCalendar, start: number, amount: number): number {
  if (amount <= 0) return start
  if (calendar.always) return start + amount
  let remaining = amount
  let day = localDay(calendar.zone, start)
  let emptyDays = 0
  while (emptyDays <= SEARCH_LIMIT_DAYS) {
    if (remaining > calendar.weekMs) {
      const week = plainWeek(calendar, day)
      if (week !== null && week.start >= start) {
        remaining -= calendar.weekMs
        day += 7
        emptyDays = 0
        continue
      }
    }
    const intervals = dayIntervals(calendar, day)
    let open = false
    for (const [intervalStart, end] of intervals) {
      const from = Math.max(intervalStart, start)
      if (from >= end) continue
      open = true
      if (remaining <= end - from) return from + remaining
      remaining -= end - from
    }
    emptyDays = open ? 0 : emptyDays + 1
    day++
  }
  return noBusinessTime()
}

function betweenMs (calendar: CompiledCalendar, from: number, to: number): number {
  if (to <= from) return 0
  if (calendar.always) return to - from
  let total = 0
  let day = localDay(calendar.zone, from)
  const lastDay = localDay(calendar.zone, to)
  while (day <= lastDay) {
    if (lastDay - day >= 7) {
      const week = plainWeek(calendar, day)
      if (week !== null && week.start >= from && week.end <= to) {
        total += calendar.weekMs
        day += 7
        continue
      }
    }
    for (const [start, end] of dayIntervals(calendar, day)) {
      const overlap = Math.min(end, to) - Math.max(start, from)
      if (overlap > 0) total += overlap
    }
    day++
  }
  return total
}

function nextOpen (calendar: CompiledCalendar, at: number): number {
  if (calendar.always) return at
  let day = localDay(calendar.zone, at)
  for (let empty = 0; empty <= SEARCH_LIMIT_DAYS; empty++, day++) {
    for (const [start, end] of dayIntervals(calendar, day)) {
      if (end > at) return Math.max(start, at)
    }
  }
  return noBusinessTime()
}

function within (calendar: CompiledCalendar, at: number): boolean {
  if (calendar.always) return true
  return dayIntervals(calendar, localDay(calendar.zone, at)).some(([start, end]) => start <= at && at < end)
}

/**
 * The earliest instant at which `minutes` of business time have elapsed since
 * `start`: inside business hours or exactly at an interval's end; `start`
 * itself for 0 minutes. Minutes may be fractional (seconds); negative counts as 0.
 */
export function addBusinessMinutes (calendar: BusinessCalendar, start: Date, minutes: number): Date {
  return new Date(addMs(compile(calendar), start.getTime(), Math.round(minutes * MINUTE)))
}

/** The exact form of `addBusinessMinutes`, in milliseconds. */
export function addBusinessMs (calendar: BusinessCalendar, start: Date, ms: number): Date {
  return new Date(addMs(compile(calendar), start.getTime(), Math.round(ms)))
}

/** Business minutes in [from, to) (fractions for seconds); 0 when `to` is not after `from`. */
export function businessMinutesBetween (calendar: BusinessCalendar, from: Date, to: Date): number {
  return betweenMs(compile(calendar), from.getTime(), to.getTime()) / MINUTE
}

/** Business milliseconds in [from, to): the exact form of `businessMinutesBetween`. */
export function businessMsBetween (calendar: BusinessCalendar, from: Date, to: Date): number {
  return betweenMs(compile(calendar), from.getTime(), to.getTime())
}

/** Whether the instant is business time (interval starts included, ends excluded). */
export function isWithinBusinessHours (calendar: BusinessCalendar, instant: Date): boolean {
  return within(compile(calendar), instant.getTime())
}

/** The instant itself when it is business time, else the next opening (an interval's start). */
export function nextBusinessInstant (calendar: BusinessCalendar, instant: Date): Date {
  return new Date(nextOpen(compile(calendar), instant.getTime()))
}

/**
 * When to warn that a target falls due (Zammad #4432): `minutesBefore`
 * calendar minutes before `due`; with `followCalendar` a warning that would
 * fall outside business hours (at night, at a weekend, on a holiday) moves
 * to the next opening, and never past `due` itself.
 */
export function warningInstant (calendar: BusinessCalendar, due: Date, minutesBefore: number, followCalendar: boolean): Date {
  const warning = new Date(due.getTime() - Math.round(minutesBefore * MINUTE))
  if (!followCalendar) return warning
  const next = nextBusinessInstant(calendar, warning)
  return next.getTime() > due.getTime() ? due : next
}
