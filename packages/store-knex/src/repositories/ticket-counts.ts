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

/**
 * The total of a ticket list read from the counts, or null when the query
 * filters on something the counts do not hold (search, owner fields, times).
 * A customer's total adds their own private tickets, counted exactly through
 * the owner index (a customer owns few). Written out and run as a prepared
 * statement (each list of values is one bound value): every list page reads
 * it, and building it with knex cost more than running it.
 */
export async function countedTicketTotal (db: Knex, dialect: Dialect, visibility: TicketVisibility, query: ListQuery): Promise<CountedTickets | null> {
  if (Object.keys(query.partial).length > 0 || (query.since !== undefined && Object.keys(query.since).length > 0) ||
    (query.before !== undefined && Object.keys(query.before).length > 0)) return null
  const filters: Array<[string, number[]]> = []
  for (const [name, values] of Object.entries(query.exact)) {
    const column = countedFilters[name]
    if (column === undefined) return null
    // Counts store an unassigned ticket's agent as 0, which is what `filter[agents]=0` asks for; no agent is below 0.
    const parsed = (parseExact(name, 'int', values) as number[]).filter((v) => column !== 'assigned_agent_id' || v >= UNASSIGNED)
    if (parsed.length === 0) return { total: 0, unrestricted: 'all' in visibility }
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
  let covers: { sql: string, bindings: unknown[] } | null = null
  if ('categoryIds' in visibility) {
    if (visibility.categoryIds.length > 0) {
      const list = dialect.inIds('"ticket_counts"."category_id"', visibility.categoryIds)
      const covered = dialect.inIds('categories.id', visibility.categoryIds)
      // An agent covering every category counts every row (see whereTicketVisible).
      covers = { sql: coversEveryCategorySql(covered.sql), bindings: covered.bindings }
      counted.push(`("coverage"."covers" or ${list.sql} or "ticket_counts"."assigned_agent_id" = ?)`)
      countedBindings.push(...list.bindings, visibility.assignedTo)
    } else {
      counted.push('"ticket_counts"."assigned_agent_id" = ?')
      countedBindings.push(visibility.assignedTo)
    }
  }
  const whereClause = (conditions: string[]): string => conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`
  if ('ownerOrPublic' in visibility) {
    counted.push('"ticket_counts"."private" = ?')
    countedBindings.push(false)
    owned.push('"tickets"."user_id" = ?', '"tickets"."private" = ?')
    ownedBindings.push(visibility.ownerOrPublic, true)
    const [row] = await dialect.run<{ counted: number | string | null, owned: number | string }>(db,
      `select (select sum("total") from "ticket_counts"${whereClause(counted)}) as "counted", (select count(*) from "tickets"${whereClause(owned)}) as "owned"`,
      [...countedBindings, ...ownedBindings])
    return { total: Number(row?.counted ?? 0) + Number(row?.owned ?? 0), unrestricted: false }
  }
  if (covers === null) {
    const [row] = await dialect.run<{ total: number | string | null }>(db, `select sum("total") as "total" from "ticket_counts"${whereClause(counted)}`, countedBindings)
    return { total: Number(row?.total ?? 0), unrestricted: 'all' in visibility }
  }
  // The agent's coverage, read in the same statement as its total: worked out once, as a one-row table the sum
  // reads (SQLite ran the same test written into the sum's condition three times slower).
  const [row] = await dialect.run<{ total: number | string | null, covers: boolean | number | null }>(db,
    `with "coverage" as (select ${covers.sql} as "covers") select "coverage"."covers" as "covers", ` +
    `(select sum("ticket_counts"."total") from "ticket_counts"${whereClause(counted)}) as "total" from "coverage"`, [...covers.bindings, ...countedBindings])
  return { total: Number(row?.total ?? 0), unrestricted: row?.covers === true || row?.covers === 1 }
}
