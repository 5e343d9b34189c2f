import { BadQueryError, ValidationError } from '../errors.js'
import type { DateTimeString } from '../time.js'
import { decodeCursor, parseSince } from './list-cursor.js'
import { PAGE_DEFAULT_SIZE, PAGE_MAX_SIZE, type ListSpec } from './list-spec.js'

export interface SortKey { field: string, desc: boolean }

/** A validated list query: only names the resource declares. */
export interface ListQuery {
  include: string[]
  sort: SortKey[]
  partial: Record<string, string>
  exact: Record<string, string[]>
  page: number
  perPage: number
  /** Time filters (the spec's `sinceFilters`) by name: items at or after each UTC time. */
  since?: Record<string, DateTimeString> | undefined
  /** Time filters (the spec's `beforeFilters`) by name: items strictly before each UTC time. */
  before?: Record<string, DateTimeString> | undefined
  /** Cursor paging instead of `page`: nothing is counted, and the page continues from a position. */
  cursor?: ListCursor | undefined
}

/**
 * Where a cursor page starts: after (or, `backward`, before) the item whose
 * sort values and id are `position`; from the start (or end) when null.
 */
export interface ListCursor {
  position: Array<string | number | boolean> | null
  backward: boolean
}

/** The raw query as strings, the way any door receives it. */
export interface RawListQuery {
  include?: string | undefined
  sort?: string | undefined
  filters?: Record<string, string> | undefined
  page?: number | string | undefined
  per_page?: number | string | undefined
  /** An opaque cursor from a previous page's links; an empty one starts cursor paging at the first page. */
  cursor?: string | undefined
}

export interface Page<T> {
  items: T[]
  /** Items matching the query (0 in cursor mode, which counts nothing). */
  total: number
  page: number
  perPage: number
  /** `total` is a lower bound: counting stopped early (a search term in very many items). */
  totalIsLowerBound?: boolean
  /** Cursor mode: the cursors of the next and previous pages, null at either end. */
  cursors?: { next: string | null, prev: string | null }
}

function splitList (value: string | undefined): string[] {
  if (value === undefined) return []
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

function unknown (kind: string, name: string, allowed: readonly string[]): BadQueryError {
  const list = allowed.length > 0 ? allowed.join(', ') : 'none'
  return new BadQueryError(`Unknown ${kind} "${name}". Allowed ${kind}s: ${list}.`)
}

function pageNumber (field: string, value: number | string | undefined, fallback: number, max?: number): number {
  if (value === undefined || value === '') return fallback
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < 1) throw ValidationError.field(field, `The ${field.replace('_', ' ')} must be an integer of at least 1.`)
  if (max !== undefined && n > max) throw ValidationError.field(field, `The ${field.replace('_', ' ')} may not be greater than ${max}.`)
  return n
}

export function parseSort (spec: ListSpec, value: string | undefined): SortKey[] {
  const keys = splitList(value ?? spec.defaultSort)
  return keys.map((key) => {
    const desc = key.startsWith('-')
    const field = desc ? key.slice(1) : key
    if (!spec.sorts.includes(field) && field !== spec.defaultSort.replace(/^-/, '')) {
      throw unknown('sort', field, spec.sorts)
    }
    return { field, desc }
  })
}

export function parseIncludes (spec: ListSpec, value: string | undefined): string[] {
  const names = [...new Set(splitList(value))]
  for (const name of names) {
    if (!spec.includes.includes(name)) throw unknown('include', name, spec.includes)
  }
  return names
}

/** Parses and checks a raw list query against its declaration (400 for unknown names, 422 for bad pages). */
export function parseListQuery (spec: ListSpec, raw: RawListQuery): ListQuery {
  const partial: Record<string, string> = {}
  const exact: Record<string, string[]> = {}
  const since: Record<string, DateTimeString> = {}
  const before: Record<string, DateTimeString> = {}
  for (const [name, value] of Object.entries(raw.filters ?? {})) {
    if (spec.partialFilters.includes(name)) {
      if (value.trim() !== '') partial[name] = value.trim()
    } else if (spec.exactFilters.includes(name)) {
      const values = splitList(value)
      if (values.length > 0) exact[name] = values
    } else if (spec.sinceFilters?.includes(name) === true) {
      if (value.trim() !== '') since[name] = parseSince(name, value)
    } else if (spec.beforeFilters?.includes(name) === true) {
      if (value.trim() !== '') before[name] = parseSince(name, value)
    } else {
      throw unknown('filter', name, [...spec.partialFilters, ...spec.exactFilters, ...(spec.sinceFilters ?? []), ...(spec.beforeFilters ?? [])])
    }
  }
  const sort = parseSort(spec, raw.sort)
  return {
    include: parseIncludes(spec, raw.include),
    sort,
    partial,
    exact,
    ...(Object.keys(since).length > 0 ? { since } : {}),
    ...(Object.keys(before).length > 0 ? { before } : {}),
    ...(raw.cursor !== undefined ? { cursor: decodeCursor(spec, sort, raw.cursor) } : {}),
    page: pageNumber('page', raw.cursor !== undefined ? undefined : raw.page, 1),
    perPage: pageNumber('per_page', raw.per_page, PAGE_DEFAULT_SIZE, PAGE_MAX_SIZE)
  }
}

/** A list query for one item: used by single views, which accept the list's includes. */
export function viewQuery (spec: ListSpec, include: string | undefined): ListQuery {
  return { include: parseIncludes(spec, include), sort: [], partial: {}, exact: {}, page: 1, perPage: 1 }
}
