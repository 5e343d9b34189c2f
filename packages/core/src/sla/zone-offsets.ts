/**
 * UTC offsets of an IANA zone, read from `Intl.DateTimeFormat` (no time-zone
 * library: the runtime's ICU data is the tz database). Offsets are in
 * milliseconds, local wall time = UTC + offset.
 */

export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

/** Local wall times lie within these offsets of UTC (Pacific/Kiritimati +14h, Etc/GMT+12 -12h). */
const MAX_OFFSET = 14 * HOUR
const MIN_OFFSET = -12 * HOUR
/** Offsets are sampled this far apart: no zone changes its offset twice within it. */
const SAMPLE_STEP = 4 * DAY

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter (zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric'
    })
    formatters.set(zone, format)
  }
  return format
}

/** The zone's offset at the instant `ms`. UTC and fixed zones skip Intl. */
export function zoneOffset (zone: string, ms: number): number {
  if (zone === 'UTC') return 0
  const second = Math.floor(ms / 1000) * 1000
  const parts = formatter(zone).formatToParts(second)
  let year = 0; let month = 0; let day = 0; let hour = 0; let minute = 0; let sec = 0
  for (const part of parts) {
    switch (part.type) {
      case 'year': year = Number(part.value); break
      case 'month': month = Number(part.value); break
      case 'day': day = Number(part.value); break
      case 'hour': hour = Number(part.value); break
      case 'minute': minute = Number(part.value); break
      case 'second': sec = Number(part.value); break
    }
  }
  const local = new Date(0)
  local.setUTCFullYear(year, month - 1, day)
  local.setUTCHours(hour, minute, sec, 0)
  return local.getTime() - second
}

/** A stretch of time with one offset: instants in [start, end). */
export interface OffsetSpan { start: number, end: number, offset: number }

/** The instant in (low, high] where the offset stops being `before` (binary search to the second). */
function transition (zone: string, low: number, high: number, before: number): number {
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000
    if (zoneOffset(zone, middle) === before) low = middle
    else high = middle
  }
  return high
}

/**
 * The offsets over [from, to), as consecutive spans. Sampled every four days
 * and at both ends, each change found by binary search: a zone that changed
 * its offset and changed it back within four days would be missed (none does).
 */
export function offsetSpans (zone: string, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = []
  let start = from
  let offset = zoneOffset(zone, from)
  let at = from
  while (at < to) {
    const next = Math.min(at + SAMPLE_STEP, to - 1)
    if (next <= at) break
    const nextOffset = zoneOffset(zone, next)
    let low = at
    let current = offset
    // More than one change between two samples (rare: a change of standard offset next to a DST change): find each.
    while (nextOffset !== current) {
      const change = transition(zone, low, next, current)
      spans.push({ start, end: change, offset: current })
      start = change
      current = zoneOffset(zone, change)
      low = change
    }
    offset = current
    at = next
  }
  spans.push({ start, end: to, offset })
  return spans
}

const daySpans = new Map<string, Map<number, OffsetSpan[]>>()
const DAY_CACHE_LIMIT = 50_000

/**
 * The offsets over every instant whose local date may be `day` (days since
 * 1970-01-01): [midnight - 14h, next midnight + 12h) read as UTC. Cached per
 * zone: offsets of the past and of the tz data in use never change.
 */
export function localDaySpans (zone: string, day: number): OffsetSpan[] {
  let byDay = daySpans.get(zone)
  if (byDay === undefined) daySpans.set(zone, byDay = new Map())
  let spans = byDay.get(day)
  if (spans === undefined) {
    if (byDay.size >= DAY_CACHE_LIMIT) byDay.clear()
    const midnight = day * DAY
    spans = offsetSpans(zone, midnight - MAX_OFFSET, midnight + DAY - MIN_OFFSET)
    byDay.set(day, spans)
  }
  return spans
}

/** The local date (days since 1970-01-01) of an instant; the offset read from the cached spans of its UTC date. */
export function localDay (zone: string, ms: number): number {
  if (zone === 'UTC') return Math.floor(ms / DAY)
  // The spans of local date d cover [d 00:00 - 14h, d+1 00:00 + 12h) as UTC: every instant of UTC date d.
  const spans = localDaySpans(zone, Math.floor(ms / DAY))
  let offset = spans[0]!.offset
  for (const span of spans) if (span.start <= ms) offset = span.offset
  return Math.floor((ms + offset) / DAY)
}

/** The instants whose local date may fall in [day, day + days): the window `localDaySpans` covers, for a run of days. */
export function localDaysWindow (day: number, days: number): { from: number, to: number } {
  return { from: day * DAY - MAX_OFFSET, to: (day + days) * DAY - MIN_OFFSET }
}
