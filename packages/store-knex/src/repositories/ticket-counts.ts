import type { Knex } from 'knex'
import type { ListQuery, TicketVisibility } from '@helpdesk/core'
import type { CountTable } from '../dialects/count-table.js'
import type { Dialect } from '../dialects/dialect.js'
import { parseExact } from '../list/list-mapping.js'
import { coversEveryCategorySql } from './ticket-visibility.js'

/**
 * Tickets counted per (category, status, assigned agent, privacy), kept
 * exact by triggers (migration 0007). Every exact filter of the ticket list
 * and every visibility rule maps onto these columns, so the total of such a
 * list is a sum over a few hundred rows at most, whatever the number of tickets.
 */
export const ticketCounts: CountTable = {
  source: 'tickets',
  table: 'ticket_counts',
  dimensions: [{ column: 'category_id' }, { column: 'status' }, { column: 'assigned_agent_id', nullAsZero: true }, { column: 'private' }]
}

/** `filter[agents]=0`: tickets nobody is assigned to. */
export const UNASSIGNED = 0

/** The list's exact filters as counted columns, values checked as the list checks them. */
const countedFilters: Record<string, string> = { status: 'status', categories: 'category_id', agents: 'assigned_agent_id' }

/** A list's total from the counts, and whether the caller's visibility rule let every ticket through. */
export interface CountedTickets {
  total: number
  /** `all`, or an agent covering every category: the rule restricts nothing (a page needs no index of its own for it). */
  unrestricted: boolean
}

/** SQL and its `?` bindings. */
export interface SqlPart { sql: string, bindings: unknown[] }

/**
 * A ticket list's total as the counts give it: a scalar SQL expression
 * (`total`), which reads `"coverage"."covers"` when `coverage` is set (the
 * agent's coverage, worked out once per statement as a one-row table named
 * `coverage`, see `coverageOf`); or a total known without reading (`known`:
 * a filter no ticket can match).
 */
export type CountedTicketSql =
  | { known: number }
  | { total: SqlPart, coverage: SqlPart | null }

/**
 * The one-row table `"coverage"` of an agent's rule (`covers`: they cover
 * every category), or null when the rule needs none. Depends on the
 * visibility only: a statement counting several lists of one caller reads it once.
 */
export function coverageOf (dialect: Dialect, visibility: TicketVisibility): SqlPart | null {
  if (!('categoryIds' in visibility) || visibility.categoryIds.length === 0) return null
  const covered = dialect.inIds('categories.id', visibility.categoryIds)
  return { sql: `select ${coversEveryCategorySql(covered.sql)} as "covers"`, bindings: covered.bindings }
}

/**
 * The total of a ticket list from the counts, as SQL (`CountedTicketSql`),
 * or null when the query filters on something the counts do not hold
 * (search, owner fields, times). A customer's total adds their own private
 * tickets, counted exactly through the owner index (a customer owns few).
 * Written out as text (each list of values is one bound value): every list
 * page reads it, and building it with knex cost more than running it.
 */
export function countedTicketSql (dialect: Dialect, visibility: TicketVisibility, query: ListQuery): CountedTicketSql | null {
  if (Object.keys(query.partial).length > 0 || (query.since !== undefined && Object.keys(query.since).length > 0) ||
    (query.before !== undefined && Object.keys(query.before).length > 0)) return null
  const filters: Array<[string, number[]]> = []
  for (const [name, values] of Object.entries(query.exact)) {
    const column = countedFilters[name]
    if (column === undefined) return null
    // Counts store an unassigned ticket's agent as 0, which is what `filter[agents]=0` asks for; no agent is below 0.
    const parsed = (parseExact(name, 'int', values) as number[]).filter((v) => column !== 'assigned_agent_id' || v >= UNASSIGNED)
    if (parsed.length === 0) return { known: 0 }
    filters.push([column, parsed])
  }
  const counted: string[] = []
  const countedBindings: unknown[] = []
  const owned: string[] = []
  const ownedBindings: unknown[] = []
  const where = (conditions: string[], bindings: unknown[], column: string, values: number[]): void => {
    const list = dialect.inIds(column, values)
    conditions.push(list.sql)
    bindings.push(...list.bindings)
  }
  for (const [column, values] of filters) {
    where(counted, countedBindings, `"ticket_counts"."${column}"`, values)
    if (column === 'assigned_agent_id' && values.includes(UNASSIGNED)) {
      const list = dialect.inIds('"tickets"."assigned_agent_id"', values)
      owned.push(`(${list.sql} or "tickets"."assigned_agent_id" is null)`)
      ownedBindings.push(...list.bindings)
    } else {
      where(owned, ownedBindings, `"tickets"."${column}"`, values)
    }
  }
  const coverage = coverageOf(dialect, visibility)
  if ('categoryIds' in visibility) {
    if (coverage !== null) {
      const list = dialect.inIds('"ticket_counts"."category_id"', visibility.categoryIds)
      // An agent covering every category counts every row (see whereTicketVisible).
      counted.push(`("coverage"."covers" or ${list.sql} or "ticket_counts"."assigned_agent_id" = ?)`)
      countedBindings.push(...list.bindings, visibility.assignedTo)
    } else {
      counted.push('"ticket_counts"."assigned_agent_id" = ?')
      countedBindings.push(visibility.assignedTo)
    }
  }
  const whereClause = (conditions: string[]): string => conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`
  const sum = (): string => `(select sum("ticket_counts"."total") from "ticket_counts"${whereClause(counted)})`
  if ('ownerOrPublic' in visibility) {
    counted.push('"ticket_counts"."private" = ?')
    countedBindings.push(false)
    owned.push('"tickets"."user_id" = ?', '"tickets"."private" = ?')
    ownedBindings.push(visibility.ownerOrPublic, true)
    return {
      total: { sql: `(coalesce(${sum()}, 0) + (select count(*) from "tickets"${whereClause(owned)}))`, bindings: [...countedBindings, ...ownedBindings] },
      coverage: null
    }
  }
  return { total: { sql: sum(), bindings: countedBindings }, coverage }
}

/**
 * The total of a ticket list read from the counts (`countedTicketSql`), or
 * null when the counts cannot answer it; run as a prepared statement.
 */
export async function countedTicketTotal (db: Knex, dialect: Dialect, visibility: TicketVisibility, query: ListQuery): Promise<CountedTickets | null> {
  const counted = countedTicketSql(dialect, visibility, query)
  if (counted === null) return null
  if ('known' in counted) return { total: counted.known, unrestricted: 'all' in visibility }
  if (counted.coverage === null) {
    const [row] = await dialect.run<{ total: number | string | null }>(db, `select ${counted.total.sql} as "total"`, counted.total.bindings)
    return { total: Number(row?.total ?? 0), unrestricted: 'all' in visibility }
  }
  // The agent's coverage, read in the same statement as its total: worked out once, as a one-row table the sum
  // reads (SQLite ran the same test written into the sum's condition three times slower).
  const [row] = await dialect.run<{ total: number | string | null, covers: boolean | number | null }>(db,
    `with "coverage" as (${counted.coverage.sql}) select "coverage"."covers" as "covers", ${counted.total.sql} as "total" from "coverage"`,
    [...counted.coverage.bindings, ...counted.total.bindings])
  return { total: Number(row?.total ?? 0), unrestricted: row?.covers === true || row?.covers === 1 }
}
