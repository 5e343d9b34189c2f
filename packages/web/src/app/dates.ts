/**
 * API datetimes are UTC: `YYYY-MM-DD HH:MM:SS` for most resources, ISO 8601 (`...T...Z`) for agents.
 * Returns null for null, empty or unparsable input.
 */
export function parseApiDate (value: string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim())
  if (match === null) return null
  const [, y, mo, d, h, mi, s, zone] = match
  if (zone !== undefined && zone !== 'Z') {
    const date = new Date(value.trim().replace(' ', 'T'))
    return Number.isNaN(date.getTime()) ? null : date
  }
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? '0')))
  return Number.isNaN(date.getTime()) ? null : date
}

/** A date and time in the viewer's timezone (or the given one), e.g. "31 Jan 2026, 15:05". */
export function formatDateTime (value: string | null | undefined, options: { locale?: string, timeZone?: string } = {}): string {
  const date = parseApiDate(value)
  if (date === null) return ''
  return new Intl.DateTimeFormat(options.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {})
  }).format(date)
}

/** The ISO form for a <time datetime> attribute. */
export function isoDateTime (value: string | null | undefined): string | undefined {
  return parseApiDate(value)?.toISOString()
}

/** True when the ticket changed after the viewer last read it (never read counts as unread). */
export function isUnread (updatedAt: string | null | undefined, lastReadByMe: string | null | undefined): boolean {
  const updated = parseApiDate(updatedAt)
  if (updated === null) return false
  const read = parseApiDate(lastReadByMe)
  return read === null || updated.getTime() > read.getTime()
}
