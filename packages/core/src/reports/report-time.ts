import { formatDateTime, type DateTimeString } from '../time.js'

/**
 * Time-zone arithmetic of reports, on `Intl` alone: local dates to UTC
 * instants, UTC hours to local dates. Reports cut days at local midnight.
 */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter (zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    formatters.set(zone, f)
  }
  return f
}

/** The wall-clock fields of `ms` in `zone`. */
function wallClock (ms: number, zone: string): { y: number, mo: number, d: number, h: number, mi: number, s: number } {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  return { y: Number(parts.year), mo: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), mi: Number(parts.minute), s: Number(parts.second) }
}

/** Milliseconds `zone` is ahead of UTC at instant `ms`. */
export function zoneOffsetMs (ms: number, zone: string): number {
  const w = wallClock(ms, zone)
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000
}

/** The UTC instant of local midnight starting `date` (`YYYY-MM-DD`) in `zone` (the first instant of that day). */
export function localMidnightUtc (date: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const wall = Date.UTC(y, m - 1, d)
  let guess = wall - zoneOffsetMs(wall, zone)
  // Twice: the offset at the guess may differ (a transition between); a gap at midnight gives its first instant.
  guess = wall - zoneOffsetMs(guess, zone)
  if (localDate(guess, zone) !== date) guess += 60 * 60 * 1000
  return guess
}

/** The local date (`YYYY-MM-DD`) of instant `ms` in `zone`. */
export function localDate (ms: number, zone: string): string {
  const w = wallClock(ms, zone)
  return `${String(w.y).padStart(4, '0')}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`
}

/** The Monday (ISO week start) of a local date. */
export function weekStart (date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`)
  const weekday = (new Date(ms).getUTCDay() + 6) % 7
  return new Date(ms - weekday * 86_400_000).toISOString().slice(0, 10)
}

/** The day after `date`. */
export function nextDate (date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

/** `[from, to]` local dates (inclusive) as a UTC `[from, to)` range of stored datetimes. */
export function utcRange (from: string, to: string, zone: string): { from: DateTimeString, to: DateTimeString } {
  return { from: formatDateTime(new Date(localMidnightUtc(from, zone))), to: formatDateTime(new Date(localMidnightUtc(nextDate(to), zone))) }
}

const HOUR = 60 * 60 * 1000

/**
 * The offsets of `zone` at the hour starts of `[from, to)`, as segments of
 * constant offset (a few a year where clocks change): hour rows of the
 * rollup are put on local dates with them.
 */
export function offsetSegments (from: DateTimeString, to: DateTimeString, zone: string): Array<{ until: DateTimeString | null, offsetMinutes: number }> {
  const start = Math.floor(Date.parse(`${from.replace(' ', 'T')}Z`) / HOUR) * HOUR
  const end = Date.parse(`${to.replace(' ', 'T')}Z`)
  const offset = (ms: number): number => Math.round(zoneOffsetMs(ms, zone) / 60_000)
  const segments: Array<{ until: DateTimeString | null, offsetMinutes: number }> = []
  let current = offset(start)
  // Daily samples; a change within a day is then found hour by hour.
  for (let day = start; day < end; day += 24 * HOUR) {
    const next = Math.min(day + 24 * HOUR, end)
    if (offset(next) === current) continue
    for (let hour = day + HOUR; hour <= next; hour += HOUR) {
      const o = offset(hour)
      if (o !== current) {
        segments.push({ until: formatDateTime(new Date(hour)), offsetMinutes: current })
        current = o
        break
      }
    }
  }
  segments.push({ until: null, offsetMinutes: current })
  return segments
}
