import type { Knex } from 'knex'
import type { ListQuery, Page, Ticket, TicketScope, ticketList, WithIncludes } from '@helpdesk/core'
import type { Dialect } from '../dialects/dialect.js'
import { rawRows } from '../dialects/raw-rows.js'
import { applyFilters, filteredPage, limitTo, parseExact, type ExactFilter, type ListMapping, type ListTotal } from '../list/list-mapping.js'
import { ticketColumns, type TicketRow } from '../rows/ticket-rows.js'
import type { RepositoryContext } from './repository-context.js'
import { countedTicketSql, countedTicketTotal, coverageOf, type SqlPart } from './ticket-counts.js'
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

/** `COUNT(*)` of at most `limit + 1` rows of the query, as a query of one row (`total`). */
function cappedCountQuery (db: Knex, filtered: Knex.QueryBuilder, limit: number): Knex.QueryBuilder {
  const rows = limitTo(filtered.clone().clearSelect().clearOrder().select(db.raw('1 as one')), limit + 1)
  return db.count({ total: '*' }).from(rows.as('capped'))
}

/** What a capped count read: exact below the limit, else a lower bound of `limit`. */
function cappedTotal (counted: number, limit: number): ListTotal {
  return counted > limit ? { total: limit, lowerBound: true } : { total: counted }
}

/** `COUNT(*)` of at most `limit + 1` rows of the query: exact below the limit, else a lower bound of `limit`. */
async function cappedCount (db: Knex, filtered: Knex.QueryBuilder, limit: number): Promise<ListTotal> {
  const row = await cappedCountQuery(db, filtered, limit).first() as { total: number | string } | undefined
  return cappedTotal(Number(row?.total ?? 0), limit)
}

/**
 * At least this many visible tickets and the page is read along the sort's
 * index, with visibility a per-row filter; fewer, and the visibility rule's
 * own indexes find them all first (then they are sorted).
 */
const SORT_SCAN_MIN = 2000

/**
 * Exact filters with several values (the inbox's `filter[status]=1,2`) that
 * the sort's index should drive instead: no index yields `status IN (1, 2)`
 * in another column's order, so the planner would gather every matching
 * ticket through the filter's index and sort them all (at a million tickets,
 * 160,000 of them for one page). When the matching tickets are dense enough
 * among those the other filters allow, reading along the sort's index and
 * testing each row finds the page after a few rows. The counts say how dense:
 * scanning reads about (offset + page) / density rows, sorting about `counted`.
 * Returns the names of the filters to apply as per-row tests, or none.
 */
async function filtersForSortScan (
  db: Knex, dialect: Dialect, scope: TicketScope, query: ListQuery, mapping: TicketMapping, counted: number | null
): Promise<Set<string>> {
  // PostgreSQL makes this choice itself: nothing to count.
  if (dialect.plansFromStatistics) return new Set()
  const names = Object.entries(query.exact)
    .filter(([name, values]) => values.length > 1 && typeof (mapping.exact as Record<string, ExactFilter>)[name] === 'object')
    .map(([name]) => name)
  if (names.length === 0 || counted === null || counted === 0) return new Set()
  const exact = Object.fromEntries(Object.entries(query.exact).filter(([name]) => !names.includes(name)))
  const among = (await countedTicketTotal(db, dialect, scope.tickets, { ...query, exact }))?.total ?? null
  if (among === null) return new Set()
  const rowsToRead = (query.cursor !== undefined ? 0 : (query.page - 1) * query.perPage) + query.perPage + 1
  return rowsToRead * among < counted * counted ? new Set(names) : new Set()
}

/** An exact column filter as a per-row test the planner does not answer through the column's index. */
function whereUnindexedIn (qb: Knex.QueryBuilder, dialect: Dialect, name: string, filter: ExactFilter, values: string[]): void {
  if (typeof filter !== 'object') return
  const parsed = parseExact(name, filter.type, values)
  void qb.whereRaw(`${dialect.unindexedColumn} in (${parsed.map(() => '?').join(', ')})`, [filter.column, ...parsed])
}

/**
 * One page of the tickets `scope` shows. Totals come from the counts when
 * the filters allow (status, categories, agents, any visibility), else from
 * a count that stops at a limit. `filter[search]` is planned first (see
 * `planTicketSearch`): a selective search lists its few matching ids, a
 * common one scans in the sort's order and tests each ticket.
 */
/**
 * The tickets `scope` shows with the query's filters except `search` (which
 * `planTicketSearch` applies); `unindexed` names exact filters applied as
 * per-row tests (`filtersForSortScan`).
 */
function filteredTickets (
  ctx: RepositoryContext, scope: TicketScope, query: ListQuery, mapping: TicketMapping, indexedVisibility: boolean, unindexed = new Set<string>()
): Knex.QueryBuilder {
  const { db, dialect } = ctx
  const { search: _search, ...partial } = query.partial
  const base = db('tickets').select(ticketColumns)
  whereTicketVisible(base, scope.tickets, dialect, indexedVisibility)
  const exact = Object.fromEntries(Object.entries(query.exact).filter(([name]) => !unindexed.has(name)))
  applyFilters(base, mapping as ListMapping<typeof ticketList, unknown, unknown>, { ...query, partial, exact }, dialect)
  for (const name of unindexed) whereUnindexedIn(base, dialect, name, (mapping.exact as Record<string, ExactFilter>)[name] as ExactFilter, query.exact[name] ?? [])
  return base
}

export async function listTickets (ctx: RepositoryContext, scope: TicketScope, query: ListQuery, mapping: TicketMapping): Promise<Page<Item>> {
  const { db, dialect } = ctx
  const { search } = query.partial
  const filtered = (indexedVisibility: boolean, unindexed = new Set<string>()): Knex.QueryBuilder =>
    filteredTickets(ctx, scope, query, mapping, indexedVisibility, unindexed)

  if (search === undefined) {
    // The counts say how many tickets the page is chosen from (also for a cursor page, which returns no total).
    const counts = await countedTicketTotal(db, dialect, scope.tickets, query)
    const counted = counts?.total ?? null
    const scanned = await filtersForSortScan(db, dialect, scope, query, mapping, counted)
    // A rule that restricts nothing (an agent covering every category) has no index worth answering it through.
    const base = filtered(counted !== null && counted < SORT_SCAN_MIN && counts?.unrestricted !== true && scanned.size === 0, scanned)
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

/** A ticket count: its total, and whether that is a lower bound (the count stopped at a limit). */
export interface TicketCount { total: number, lowerBound: boolean }

/** One query's part of `countTickets`' statement: a total known already, or a scalar subquery (capped at `limit` when set). */
type CountPart = { known: TicketCount } | { sql: SqlPart, coverage: boolean, limit: number | null }

/**
 * How many tickets `listTickets` pages through for each query's filters, in
 * one statement whatever the number of queries: each total is a scalar
 * subquery of it, from the counts when the filters allow, else a count that
 * stops at FILTERED_COUNT_LIMIT (`lowerBound` past it). A search is planned
 * as the list plans it, first and per query (`planTicketSearch`: a few reads
 * of at most SEARCH_COUNT_LIMIT + 1 ids each); a selective one is then
 * counted in the statement, a common one is that limit, a lower bound.
 */
export async function countTickets (
  ctx: RepositoryContext, scope: TicketScope, queries: readonly ListQuery[], mapping: TicketMapping
): Promise<TicketCount[]> {
  const { db, dialect } = ctx
  const capped = (rows: Knex.QueryBuilder): CountPart => {
    const { sql, bindings } = cappedCountQuery(db, rows, FILTERED_COUNT_LIMIT).toSQL()
    return { sql: { sql: `(${sql})`, bindings: [...bindings] }, coverage: false, limit: FILTERED_COUNT_LIMIT }
  }
  const parts: CountPart[] = []
  for (const query of queries) {
    const { search } = query.partial
    if (search === undefined) {
      const counted = countedTicketSql(dialect, scope.tickets, query)
      if (counted === null) parts.push(capped(filteredTickets(ctx, scope, query, mapping, false)))
      else if ('known' in counted) parts.push({ known: { total: counted.known, lowerBound: false } })
      else parts.push({ sql: counted.total, coverage: counted.coverage !== null, limit: null })
      continue
    }
    const base = filteredTickets(ctx, scope, query, mapping, false)
    const plan = await planTicketSearch(db, dialect, search, base, scope.tickets)
    if (plan.kind === 'none') parts.push({ known: { total: 0, lowerBound: false } })
    else if (plan.kind === 'common') parts.push({ known: { total: SEARCH_COUNT_LIMIT, lowerBound: true } })
    else {
      dialect.whereIdIn(base, 'tickets.id', plan.ids)
      parts.push(capped(base))
    }
  }
  const read = parts.flatMap((part, i) => 'sql' in part ? [{ ...part, alias: `c${i}` }] : [])
  const row: Record<string, number | string | null> = {}
  if (read.length > 0) {
    // The agent's coverage (the same for every query: one caller) is worked out once, as a one-row table the counts read.
    const coverage = read.some((part) => part.coverage) ? coverageOf(dialect, scope.tickets) : null
    const columns = read.map((part) => `${part.sql.sql} as "${part.alias}"`).join(', ')
    const bindings = [...coverage?.bindings ?? [], ...read.flatMap((part) => part.sql.bindings)]
    const sql = coverage === null ? `select ${columns}` : `with "coverage" as (${coverage.sql}) select ${columns} from "coverage"`
    Object.assign(row, rawRows<typeof row>(await db.raw(sql, bindings as Knex.RawBinding[]))[0])
  }
  return parts.map((part, i) => {
    if ('known' in part) return part.known
    const counted = Number(row[`c${i}`] ?? 0)
    if (part.limit === null) return { total: counted, lowerBound: false }
    const total = cappedTotal(counted, part.limit)
    return { total: total.total, lowerBound: total.lowerBound === true }
  })
}
