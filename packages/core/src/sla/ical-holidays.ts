import { ValidationError } from '../errors.js'
import { textLength } from '../text-input.js'
import { CALENDAR_LIMITS, type Holiday } from './calendar.js'

/** The years whose holidays an import keeps (inclusive); recurring events are expanded over them only. */
export interface IcalHolidayRange { from_year: number, to_year: number }

export const ICAL_LIMITS = {
  /** Widest range of years one import expands. */
  years: 50,
  /** Occurrences walked per recurring event before the import gives up (a DAILY rule since 1900...). */
  occurrences: 20_000,
  /** Days one all-day event may cover. */
  eventDays: 366
} as const

const DAY = 86_400_000

interface IcalTime { year: number, month: number, day: number, isDate: boolean, compare (other: IcalTime): number }

function dayNumber (time: IcalTime): number {
  return Date.UTC(time.year, time.month - 1, time.day) / DAY
}

function isoDate (day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10)
}

function holidayName (summary: unknown): string | null {
  const text = (typeof summary === 'string' ? summary : '').replace(/\s+/g, ' ').trim()
  if (text === '') return null
  return textLength(text) > CALENDAR_LIMITS.holidayName ? [...text].slice(0, CALENDAR_LIMITS.holidayName).join('') : text
}

function checkRange (range: IcalHolidayRange): void {
  const { from_year: from, to_year: to } = range
  const errors: Record<string, string[]> = {}
  if (!Number.isInteger(from) || from < 1900 || from > 2999) errors.from_year = ['The from year must be a year from 1900 to 2999.']
  if (!Number.isInteger(to) || to < 1900 || to > 2999) errors.to_year = ['The to year must be a year from 1900 to 2999.']
  else if (errors.from_year === undefined && (to < from || to - from >= ICAL_LIMITS.years)) {
    errors.to_year = [`The to year must be from the from year to ${ICAL_LIMITS.years - 1} years after it.`]
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/**
 * The holidays of an iCalendar (.ics) text, for a calendar's `holidays`
 * (docs/sla.md). Parsed with ical.js, loaded on first use.
 *
 * - All-day events (`DTSTART;VALUE=DATE`) give every date from their start
 *   up to their end, exclusive (a multi-day event gives each of its days; no
 *   end means one day). Events with a time of day are not holidays and are
 *   left out, as are cancelled ones.
 * - Recurring events (RRULE, RDATE, EXDATE, changed occurrences) are expanded
 *   over `range` only; every event is kept only on the dates inside it.
 * - A date given by several events keeps the first name, in date order.
 *
 * A text that is not iCalendar, or more holidays than a calendar holds, is a
 * ValidationError on `ical`.
 */
export async function holidaysFromIcal (text: string, range: IcalHolidayRange): Promise<Holiday[]> {
  checkRange(range)
  const { default: ICAL } = await import('ical.js')
  let root: InstanceType<typeof ICAL.Component>
  try {
    root = new ICAL.Component(ICAL.parse(text) as any[])
  } catch {
    throw ValidationError.field('ical', 'The file is not a valid iCalendar (.ics) file.')
  }
  if (root.name !== 'vcalendar') throw ValidationError.field('ical', 'The file is not a valid iCalendar (.ics) file.')

  const first = Date.UTC(range.from_year, 0, 1) / DAY
  const last = Date.UTC(range.to_year, 11, 31) / DAY
  const names = new Map<number, string | null>()
  const add = (start: IcalTime, end: IcalTime, summary: unknown): void => {
    const from = dayNumber(start)
    const to = Math.min(Math.max(dayNumber(end), from + 1), from + ICAL_LIMITS.eventDays)
    for (let day = Math.max(from, first); day < to && day <= last; day++) {
      if (!names.has(day)) names.set(day, holidayName(summary))
    }
    if (names.size > CALENDAR_LIMITS.holidays) {
      throw ValidationError.field('ical', `The file holds more than ${CALENDAR_LIMITS.holidays} holidays in the years asked for.`)
    }
  }

  const events = root.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component))
  const masters = new Map<string, InstanceType<typeof ICAL.Event>>()
  for (const event of events) if (!event.isRecurrenceException()) masters.set(event.uid, event)
  for (const event of events) {
    const master = event.isRecurrenceException() ? masters.get(event.uid) : undefined
    if (master !== undefined) master.relateException(event)
  }

  const cancelled = (event: InstanceType<typeof ICAL.Event>): boolean =>
    String(event.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED'

  for (const event of events) {
    if (event.isRecurrenceException() && masters.has(event.uid)) continue // handled through its master
    const start = event.startDate as IcalTime | null
    if (start === null || !start.isDate) continue
    if (!event.isRecurring()) {
      if (!cancelled(event)) add(start, event.endDate as IcalTime, event.summary)
      continue
    }
    const expansion = event.iterator()
    for (let walked = 0; ; walked++) {
      if (walked >= ICAL_LIMITS.occurrences) {
        throw ValidationError.field('ical', `A recurring event repeats more than ${ICAL_LIMITS.occurrences} times before the years asked for end.`)
      }
      const next = expansion.next() as IcalTime | null
      if (next === null || next === undefined || next.year > range.to_year) break
      const details = event.getOccurrenceDetails(next as any)
      const occurrence = details.startDate as IcalTime
      if (!occurrence.isDate || cancelled(details.item)) continue
      add(occurrence, details.endDate as IcalTime, details.item.summary)
    }
  }

  return [...names.entries()].sort((a, b) => a[0] - b[0]).map(([day, name]) => ({ date: isoDate(day), name }))
}
