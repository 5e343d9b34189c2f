import { BadQueryError, ValidationError } from '../errors.js'
import type { DateTimeString } from '../time.js'
import type { ListCursor, SortKey } from './list-query.js'
import type { ListSpec, SortValueType } from './list-spec.js'

/*
 * Cursors are opaque to clients: base64url JSON of the sort they were made
 * for, the sort values and id of the item to continue from, and the
 * direction. A cursor not issued for this list and sort (another sort,
 * values of the wrong types, tampered, undecodable) is a 400 (CONTRACT §17):
 * nothing of it reaches a query unchecked.
 */

type CursorValue = string | number | boolean

function signature (sort: SortKey[]): string {
  return sort.map((key) => `${key.desc ? '-' : ''}${key.field}`).join(',')
}

const invalid = (): BadQueryError => new BadQueryError('The cursor is invalid or was made for another list or sort; start again without one.')

/** Integer columns hold 32-bit values: a larger number was never issued. */
const INT_MAX = 2 ** 31 - 1
/** Sorted text is a title or a name: far shorter than this. */
const STRING_MAX = 10_000
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

function isDateTime (value: string): boolean {
  const match = DATETIME.exec(value)
  if (match === null) return false
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number]
  const day = new Date(Date.UTC(y, mo - 1, d))
  return y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h <= 23 && mi <= 59 && s <= 59
}

function hasType (value: unknown, type: SortValueType | undefined): boolean {
  switch (type) {
    case 'int': return typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) <= INT_MAX
    case 'bool': return typeof value === 'boolean' || value === 0 || value === 1
    case 'datetime': return typeof value === 'string' && isDateTime(value)
    case 'string': return typeof value === 'string' && value.length <= STRING_MAX && !value.includes('\u0000')
    default: return (typeof value === 'string' && value.length <= STRING_MAX && !value.includes('\u0000')) || typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) <= INT_MAX)
  }
}

/** The cursor of a page that continues after (or, `backward`, before) the item with these sort values and id. */
export function encodeCursor (sort: SortKey[], position: CursorValue[], backward: boolean): string {
  return Buffer.from(JSON.stringify([signature(sort), position, backward ? 1 : 0])).toString('base64url')
}

/** A cursor parameter of `spec`'s list sorted by `sort`; an empty one starts at the first page. */
export function decodeCursor (spec: Pick<ListSpec, 'keyTypes'>, sort: SortKey[], raw: string): ListCursor {
  if (raw.trim() === '') return { position: null, backward: false }
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(raw.trim(), 'base64url').toString('utf8'))
  } catch {
    throw invalid()
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid()
  const [made, position, backward] = parsed as [unknown, unknown, unknown]
  if (made !== signature(sort) || !Array.isArray(position) || position.length !== sort.length + 1 || (backward !== 0 && backward !== 1)) throw invalid()
  const types = spec.keyTypes
  const expected = [...sort.map((key) => types?.[key.field]), types === undefined ? undefined : types.id ?? 'int']
  if (!position.every((value, i) => hasType(value, expected[i]))) throw invalid()
  return { position: position as CursorValue[], backward: backward === 1 }
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * A time filter's value as a UTC datetime: `YYYY-MM-DD HH:MM:SS` (UTC, as the
 * API writes times), ISO 8601 with `Z` or an offset, or a date alone (its
 * midnight, UTC). Anything else is a 422 on `filter.<name>`.
 */
export function parseSince (name: string, value: string): DateTimeString {
  const match = ISO.exec(value.trim())
  const bad = (): ValidationError => ValidationError.field(`filter.${name}`,
    `The ${name} filter must be a UTC datetime (YYYY-MM-DD HH:MM:SS) or an ISO 8601 time, got "${value}".`)
  if (match === null) throw bad()
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number]
  const zone = match[7]
  const local = Date.UTC(y, mo - 1, d, h, mi, s)
  const check = new Date(local)
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) throw bad()
  const offset = zone === undefined || zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)))
  return new Date(local - offset * 60_000).toISOString().slice(0, 19).replace('T', ' ')
}
