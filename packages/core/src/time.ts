/** Datetimes are stored and returned as UTC `YYYY-MM-DD HH:MM:SS` strings (CONTRACT §13). */
export type DateTimeString = string

export interface Clock { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

/** The last second formatted: most calls (every view's read mark, every write's timestamps) ask for the same second again. */
let lastSecond = Number.NaN
let lastFormatted = ''

export function formatDateTime (date: Date): DateTimeString {
  const second = Math.floor(date.getTime() / 1000)
  if (second !== lastSecond) {
    lastFormatted = date.toISOString().slice(0, 19).replace('T', ' ')
    lastSecond = second
  }
  return lastFormatted
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?Z?$/

/** A `YYYY-MM-DD HH:MM:SS` UTC string (ISO 8601 with `T`/`Z` accepted too) as milliseconds. */
export function parseDateTime (value: DateTimeString): number {
  const match = DATE_TIME.exec(value)
  const ms = match === null ? Number.NaN : Date.parse(`${match[1]}T${match[2]}${match[3] ?? ''}Z`)
  if (Number.isNaN(ms)) throw new RangeError(`Not a UTC date-time (YYYY-MM-DD HH:MM:SS): ${value}`)
  return ms
}

/** `YYYY-MM-DD HH:MM:SS` -> `YYYY-MM-DDTHH:MM:SSZ` (the agent resource's ISO 8601 form). */
export function toIso8601 (value: DateTimeString | null): string | null {
  if (value === null) return null
  return `${value.slice(0, 10)}T${value.slice(11, 19)}Z`
}

export function isValidTimezone (zone: string): boolean {
  try {
    Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
