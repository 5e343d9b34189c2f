import { PRIORITIES } from '../automation/rule-conditions.js'
import { BadQueryError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { parseListQuery, parseSort, type ListQuery } from '../list/list-query.js'
import { requiredPlainText } from '../text-input.js'
import { ticketList } from '../tickets/ticket.js'
import { DEFAULT_VIEW_SORT, RECENTLY_CLOSED_DAYS, VIEW_LIMITS, type BuiltInViewKey, type SavedView, type ViewPatch } from './view.js'

export type ViewValues = Pick<SavedView, 'name' | 'shared' | 'filters' | 'sort'>

/** Exact filters of the ticket list whose values are ids or numbers. */
const NUMERIC_FILTERS = new Set(['status', 'categories', 'agents'])

/**
 * Checks a view's filters and sort by the ticket list's own rules
 * (`parseListQuery` on `ticketList`), reported as 422 on `filters.NAME` and
 * `sort` instead of the list's 400: here they are fields of a body.
 */
export function checkViewQuery (errors: FieldErrors, filters: Record<string, string>, sort: string): void {
  const entries = Object.entries(filters)
  if (entries.length > VIEW_LIMITS.filters) errors.filters = [`A view may hold at most ${VIEW_LIMITS.filters} filters.`]
  for (const [name, value] of entries) {
    const problem = (() => {
      if (typeof value !== 'string') return 'The filter must be text.'
      if (value.length > VIEW_LIMITS.filterValue) return `The filter may not be longer than ${VIEW_LIMITS.filterValue} characters.`
      try {
        parseListQuery(ticketList, { filters: { [name]: value } })
      } catch (error) {
        if (error instanceof BadQueryError) return error.message
        if (error instanceof ValidationError) return Object.values(error.errors).flat()[0] ?? error.message
        throw error
      }
      const values = value.split(',').map((v) => v.trim()).filter((v) => v !== '')
      if (NUMERIC_FILTERS.has(name) && values.some((v) => !/^\d{1,10}$/.test(v))) return `The ${name} filter takes numbers, separated by commas.`
      if (name === 'merged' && values.some((v) => v !== '0' && v !== '1')) return 'The merged filter takes 0 (not merged) or 1 (merged).'
      if (name === 'priority' && values.some((v) => !(PRIORITIES as readonly string[]).includes(v))) return `The priority filter takes ${PRIORITIES.join(', ')}.`
      return null
    })()
    if (problem !== null) errors[`filters.${name}`] = [problem]
  }
  try {
    parseSort(ticketList, sort)
  } catch (error) {
    if (!(error instanceof BadQueryError)) throw error
    errors.sort = [error.message]
  }
}

/** A view's values after a create or update: name required, filters and sort checked as `GET /tickets` checks them. */
export function viewValues (current: ViewValues, patch: ViewPatch): ViewValues {
  const errors: FieldErrors = {}
  const name = patch.name !== undefined ? requiredPlainText(errors, 'name', patch.name, VIEW_LIMITS.name) : current.name
  const filters = patch.filters !== undefined
    ? Object.fromEntries(Object.entries(patch.filters).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]).filter(([, value]) => value !== ''))
    : current.filters
  const sort = patch.sort !== undefined ? (patch.sort.trim() === '' ? DEFAULT_VIEW_SORT : patch.sort.trim()) : current.sort
  checkViewQuery(errors, filters, sort)
  throwIfInvalid(errors)
  return { name, shared: patch.shared ?? current.shared, filters, sort }
}

/**
 * What a built-in view shows `viewerId` at `now`: mine and unassigned are
 * the open and pending tickets of the viewer or of nobody; open and pending
 * by status; closed the tickets closed (last changed) in the last seven days,
 * except those merged into another (a merged ticket stays closed, so the
 * other views never show one).
 */
export function builtInViewQuery (key: BuiltInViewKey, viewerId: number, now: Date): Pick<SavedView, 'filters' | 'sort'> {
  switch (key) {
    case 'mine': return { filters: { status: '1,2', agents: String(viewerId) }, sort: DEFAULT_VIEW_SORT }
    case 'unassigned': return { filters: { status: '1,2', agents: '0' }, sort: DEFAULT_VIEW_SORT }
    case 'open': return { filters: { status: '1' }, sort: DEFAULT_VIEW_SORT }
    case 'pending': return { filters: { status: '2' }, sort: DEFAULT_VIEW_SORT }
    case 'closed': {
      const since = new Date(now.getTime() - RECENTLY_CLOSED_DAYS * 24 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ')
      // A merged ticket is closed too, but its conversation goes on in the target: not one to look back at.
      return { filters: { status: '3', updated_since: since, merged: '0' }, sort: DEFAULT_VIEW_SORT }
    }
  }
}

/** The ticket list query a view stands for (one page of one ticket: what a count needs). */
export function viewTicketQuery (view: Pick<SavedView, 'filters' | 'sort'>): ListQuery {
  return { ...parseListQuery(ticketList, { filters: view.filters, sort: view.sort }), perPage: 1 }
}
