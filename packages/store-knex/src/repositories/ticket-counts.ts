import type { Knex } from 'knex'
import type { ListQuery, TicketVisibility } from '@helpdesk/core'
import type { CountTable } from '../dialects/count-table.js'
import { parseExact } from '../list/list-mapping.js'

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

/**
 * The total of a ticket list read from the counts, or null when the query
 * filters on something the counts do not hold (search, owner fields, times).
 * A customer's total adds their own private tickets, counted exactly through
 * the owner index (a customer owns few).
 */
export async function countedTicketTotal (db: Knex, visibility: TicketVisibility, query: ListQuery): Promise<number | null> {
  if (Object.keys(query.partial).length > 0 || (query.since !== undefined && Object.keys(query.since).length > 0)) return null
  const filters: Array<[string, Array<string | number | boolean>]> = []
  for (const [name, values] of Object.entries(query.exact)) {
    const column = countedFilters[name]
    if (column === undefined) return null
    // Counts store an unassigned ticket's agent as 0, which is what `filter[agents]=0` asks for; no agent is below 0.
    const parsed = parseExact(name, 'int', values).filter((v) => column !== 'assigned_agent_id' || (v as number) >= UNASSIGNED)
    if (parsed.length === 0) return 0
    filters.push([column, parsed])
  }
  const counted = db(ticketCounts.table).sum({ total: 'total' })
  const owned = db('tickets').count({ total: '*' })
  for (const [column, values] of filters) {
    void counted.whereIn(column, values)
    if (column === 'assigned_agent_id' && values.includes(UNASSIGNED)) {
      void owned.where((w) => { void w.whereIn('tickets.assigned_agent_id', values).orWhereNull('tickets.assigned_agent_id') })
    } else {
      void owned.whereIn(`tickets.${column}`, values)
    }
  }
  if ('categoryIds' in visibility) {
    void counted.where((w) => {
      if (visibility.categoryIds.length > 0) void w.whereIn('category_id', visibility.categoryIds)
      void w.orWhere('assigned_agent_id', visibility.assignedTo)
    })
  }
  if ('ownerOrPublic' in visibility) {
    void counted.where('private', false)
    void owned.where('tickets.user_id', visibility.ownerOrPublic).where('tickets.private', true)
    const row = await db.select({ counted: counted, owned: owned }).first() as { counted: number | string | null, owned: number | string }
    return Number(row.counted ?? 0) + Number(row.owned)
  }
  const row = await counted.first() as { total: number | string | null } | undefined
  return Number(row?.total ?? 0)
}
