import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { optionalPlainText } from '../text-input.js'

/** Weekdays as calendars name them (JSON keys), Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = typeof WEEKDAYS[number]

/** One opening on a weekday: local wall-clock times, `start` included, `end` excluded (`end` may be `24:00`). */
export interface BusinessInterval { start: string, end: string }

/** A full local day off, whatever the hours of its weekday. */
export interface Holiday { date: string, name: string | null }

/**
 * Business hours (docs/sla.md). An instant is business time when, read on a
 * wall clock in `time_zone`, its date is not a holiday and its time of day
 * falls in one of the intervals of its weekday. `twenty_four_seven` makes
 * every minute business time (the `hours` are kept, unused, so switching it
 * off restores them); holidays still apply. Normalised by `businessCalendar`:
 * canonical zone name, every weekday present, intervals sorted, holidays
 * sorted by date.
 */
export interface BusinessCalendar {
  time_zone: string
  hours: Record<Weekday, BusinessInterval[]>
  holidays: Holiday[]
  twenty_four_seven: boolean
}

/** What a caller sends: weekdays may be left out, a holiday may be a bare `YYYY-MM-DD`. */
export interface BusinessCalendarInput {
  time_zone: string
  hours?: Partial<Record<string, BusinessInterval[]>>
  holidays?: Array<string | { date: string, name?: string | null }>
  twenty_four_seven?: boolean
}

export const CALENDAR_LIMITS = {
  intervalsPerDay: 12,
  holidays: 2000,
  holidayName: 100
} as const

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** `HH:MM` -> minutes since local midnight; `24:00` only when `allowMidnightEnd`; null when malformed. */
export function parseLocalTime (value: unknown, allowMidnightEnd: boolean): number | null {
  if (typeof value !== 'string') return null
  if (value === '24:00') return allowMidnightEnd ? 1440 : null
  const match = TIME.exec(value)
  return match === null ? null : Number(match[1]) * 60 + Number(match[2])
}

/** `YYYY-MM-DD` (a real date, years 1900-2999) -> days since 1970-01-01; null when malformed. */
export function parseLocalDate (value: unknown): number | null {
  if (typeof value !== 'string') return null
  const match = DATE.exec(value)
  if (match === null) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1900 || year > 2999) return null
  const ms = Date.UTC(year, month - 1, day)
  const back = new Date(ms)
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null
  return ms / 86_400_000
}

/** The zone's canonical IANA name (`utc` -> `UTC`), or null when Intl does not know it. */
export function canonicalTimeZone (zone: unknown): string | null {
  if (typeof zone !== 'string' || zone.trim() === '') return null
  let canonical = canonicalZones.get(zone)
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone
    } catch {
      canonical = null
    }
    if (canonicalZones.size >= 1000) canonicalZones.clear()
    canonicalZones.set(zone, canonical)
  }
  return canonical
}

/** Building an Intl.DateTimeFormat costs far more than using one: each name is looked up once. */
const canonicalZones = new Map<string, string | null>()

function checkDay (errors: FieldErrors, day: string, intervals: unknown): BusinessInterval[] {
  const field = `hours.${day}`
  if (!Array.isArray(intervals)) {
    errors[field] = ['The hours of a day must be a list of intervals.']
    return []
  }
  if (intervals.length > CALENDAR_LIMITS.intervalsPerDay) {
    errors[field] = [`A day may not have more than ${CALENDAR_LIMITS.intervalsPerDay} intervals.`]
    return []
  }
  const parsed: Array<{ index: number, start: number, end: number, interval: BusinessInterval }> = []
  intervals.forEach((raw: Partial<BusinessInterval> | null, index) => {
    const start = parseLocalTime(raw?.start, false)
    const end = parseLocalTime(raw?.end, true)
    if (start === null) errors[`${field}.${index}.start`] = ['The start must be a time from 00:00 to 23:59 (HH:MM).']
    if (end === null) errors[`${field}.${index}.end`] = ['The end must be a time from 00:01 to 24:00 (HH:MM).']
    if (start === null || end === null) return
    if (start >= end) {
      errors[`${field}.${index}.end`] = ['The end must be after the start.']
      return
    }
    parsed.push({ index, start, end, interval: { start: raw!.start!, end: raw!.end! } })
  })
  parsed.sort((a, b) => a.start - b.start)
  for (let i = 1; i < parsed.length; i++) {
    const previous = parsed[i - 1]!
    const current = parsed[i]!
    if (current.start < previous.end) {
      const [reported, other] = previous.index > current.index ? [previous, current] : [current, previous]
      errors[`${field}.${reported.index}`] = [`The interval overlaps ${other.interval.start}-${other.interval.end}.`]
    }
  }
  return parsed.map((p) => p.interval)
}

function checkHours (errors: FieldErrors, hours: unknown): Record<Weekday, BusinessInterval[]> {
  const normalised = Object.fromEntries(WEEKDAYS.map((day) => [day, [] as BusinessInterval[]])) as Record<Weekday, BusinessInterval[]>
  if (hours === undefined || hours === null) return normalised
  if (typeof hours !== 'object' || Array.isArray(hours)) {
    errors.hours = ['The hours must map weekdays (mon..sun) to lists of intervals.']
    return normalised
  }
  for (const [day, intervals] of Object.entries(hours)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) {
      errors[`hours.${day}`] = ['The weekday is unknown: use mon, tue, wed, thu, fri, sat or sun.']
      continue
    }
    normalised[day as Weekday] = checkDay(errors, day, intervals ?? [])
  }
  return normalised
}

function checkHolidays (errors: FieldErrors, holidays: unknown): Holiday[] {
  if (holidays === undefined || holidays === null) return []
  if (!Array.isArray(holidays)) {
    errors.holidays = ['The holidays must be a list of dates.']
    return []
  }
  if (holidays.length > CALENDAR_LIMITS.holidays) {
    errors.holidays = [`The holidays may not have more than ${CALENDAR_LIMITS.holidays} items.`]
    return []
  }
  const seen = new Set<number>()
  const result: Array<Holiday & { day: number }> = []
  holidays.forEach((raw: unknown, index) => {
    const entry = typeof raw === 'string' ? { date: raw, name: null } : raw as { date?: unknown, name?: unknown } | null
    const day = parseLocalDate(entry?.date)
    if (day === null) {
      errors[`holidays.${index}.date`] = ['The date must be a date (YYYY-MM-DD).']
      return
    }
    if (seen.has(day)) {
      errors[`holidays.${index}.date`] = ['The date is listed twice.']
      return
    }
    seen.add(day)
    const rawName = entry?.name
    if (rawName !== undefined && rawName !== null && typeof rawName !== 'string') {
      errors[`holidays.${index}.name`] = ['The name must be text.']
      return
    }
    const nameErrors: FieldErrors = {}
    const name = optionalPlainText(nameErrors, 'name', rawName, CALENDAR_LIMITS.holidayName)
    if (nameErrors.name !== undefined) {
      errors[`holidays.${index}.name`] = nameErrors.name
      return
    }
    result.push({ date: entry!.date as string, name, day })
  })
  return result.sort((a, b) => a.day - b.day).map(({ date, name }) => ({ date, name }))
}

/** The field errors of a calendar input, keyed by dotted path (`hours.mon.1.end`, `holidays.3.date`); empty when valid. */
export function businessCalendarErrors (input: BusinessCalendarInput): FieldErrors {
  const errors: FieldErrors = {}
  normalise(errors, input)
  return errors
}

function normalise (errors: FieldErrors, input: BusinessCalendarInput): BusinessCalendar {
  const zone = canonicalTimeZone(input?.time_zone)
  if (zone === null) errors.time_zone = ['The time zone must be an IANA time zone name (Europe/Berlin).']
  const twentyFourSeven = input?.twenty_four_seven ?? false
  if (typeof twentyFourSeven !== 'boolean') errors.twenty_four_seven = ['The twenty four seven field must be true or false.']
  const hours = checkHours(errors, input?.hours)
  const holidays = checkHolidays(errors, input?.holidays)
  const open = WEEKDAYS.some((day) => hours[day].length > 0)
  if (!open && twentyFourSeven !== true && errors.hours === undefined && !Object.keys(errors).some((k) => k.startsWith('hours.'))) {
    errors.hours = ['The calendar needs business hours on at least one weekday, or twenty_four_seven.']
  }
  return { time_zone: zone ?? '', hours, holidays, twenty_four_seven: twentyFourSeven === true }
}

/**
 * The normalised calendar, or a ValidationError naming every bad field:
 * unknown time zone, malformed times, an end not after its start, overlapping
 * intervals on a day, unknown weekdays, bad or repeated holiday dates, and a
 * calendar with no business time at all.
 */
export function businessCalendar (input: BusinessCalendarInput): BusinessCalendar {
  const errors: FieldErrors = {}
  const calendar = normalise(errors, input)
  throwIfInvalid(errors)
  return calendar
}

/** A calendar open every minute of every day (holidays none), in UTC unless a zone is given. */
export function twentyFourSevenCalendar (timeZone = 'UTC'): BusinessCalendar {
  return businessCalendar({ time_zone: timeZone, twenty_four_seven: true })
}
