/** Datetimes are stored and returned as UTC `YYYY-MM-DD HH:MM:SS` strings (CONTRACT §13). */
export type DateTimeString = string

export interface Clock { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

export function formatDateTime (date: Date): DateTimeString {
  return date.toISOString().slice(0, 19).replace('T', ' ')
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
