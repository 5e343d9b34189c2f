import type { Knex } from 'knex'
import type { ListQuery, Page, Ticket, TicketScope, ticketList, WithIncludes } from '@helpdesk/core'
import { applyFilters, filteredPage, type ListMapping, type ListTotal } from '../list/list-mapping.js'
import { ticketColumns, type TicketRow } from '../rows/ticket-rows.js'
import type { RepositoryContext } from './repository-context.js'
import { countedTicketTotal } from './ticket-counts.js'
import { planTicketSearch, SEARCH_COUNT_LIMIT } from './ticket-search.js'
import { whereTicketVisible } from './ticket-visibility.js'

type Item = WithIncludes<Ticket>
export type TicketMapping = ListMapping<typeof ticketList, TicketRow, Item>

/**
 * Filters the counts cannot answer (owner names, `updated_since`) are
 * counted exactly up to this many rows; past it, the total is a lower bound.
 * Clients walking such lists use cursors, which count nothing.
 */
export const FILTERED_COUNT_LIMIT = 10_000

/** `COUNT(*)` of at most `limit + 1` rows of the query: exact below the limit, else a lower bound of `limit`. */
async function cappedCount (db: Knex, filtered: Knex.QueryBuilder, limit: number): Promise<ListTotal> {
  const rows = filtered.clone().clearSelect().clearOrder().select(db.raw('1 as one')).limit(limit + 1)
  const row = await db.count({ total: '*' }).from(rows.as('capped')).first() as { total: number | string } | undefined
  const counted = Number(row?.total ?? 0)
  return counted > limit ? { total: limit, lowerBound: true } : { total: counted }
}

/**
 * At least this many visible tickets and the page is read along the sort's
 * index, with visibility a per-row filter; fewer, and the visibility rule's
 * own indexes find them all first (then they are sorted).
 */
const SORT_SCAN_MIN = 2000

/**
 * One page of the tickets `scope` shows. Totals come from the counts when
 * the filters allow (status, categories, agents, any visibility), else from
 * a count that stops at a limit. `filter[search]` is planned first (see
 * `planTicketSearch`): a selective search lists its few matching ids, a
 * common one scans in the sort's order and tests each ticket.
 */
export async function listTickets (ctx: RepositoryContext, scope: TicketScope, query: ListQuery, mapping: TicketMapping): Promise<Page<Item>> {
  const { db, dialect } = ctx
  const { search, ...partial } = query.partial
  const filtered = (indexedVisibility: boolean): Knex.QueryBuilder => {
    const base = db('tickets').select(ticketColumns)
    whereTicketVisible(base, scope.tickets, dialect, indexedVisibility)
    applyFilters(base, mapping as ListMapping<typeof ticketList, unknown, unknown>, { ...query, partial }, dialect)
    return base
  }

  if (search === undefined) {
    // The counts say how many tickets the page is chosen from (also for a cursor page, which returns no total).
    const counted = await countedTicketTotal(db, scope.tickets, query)
    const base = filtered(counted !== null && counted < SORT_SCAN_MIN)
    return await filteredPage(db, base, mapping, query, {
      total: async (rows) => counted !== null ? { total: counted } : await cappedCount(db, rows, FILTERED_COUNT_LIMIT)
    })
  }
  // A search's own ids (selective) or the sort's index (common) drive the page, never the visibility rule.
  const base = filtered(false)
  const plan = await planTicketSearch(db, dialect, search, base, scope.tickets)
  if (plan.kind === 'none') {
    return { items: [], total: 0, page: query.page, perPage: query.perPage, ...(query.cursor !== undefined ? { cursors: { next: null, prev: null } } : {}) }
  }
  if (plan.kind === 'selective') {
    dialect.whereIdIn(base, 'tickets.id', plan.ids)
    return await filteredPage(db, base, mapping, query)
  }
  plan.matches(base)
  // The plan found more matching tickets in this list than it counts: the total is that limit, a lower bound.
  return await filteredPage(db, base, mapping, query, { total: async () => ({ total: SEARCH_COUNT_LIMIT, lowerBound: true }) })
}
