import type { Knex } from 'knex'
import type { TicketVisibility } from '@helpdesk/core'
import type { Dialect } from '../dialects/dialect.js'

/**
 * `TicketVisibility` as SQL on a query of `tickets`. `indexed: false` keeps
 * the planner from answering the rule's OR through the owner/category/agent
 * indexes (then sorting every row it allows): right when the rule allows
 * many tickets, so the sort's index drives the page and the rule only
 * filters. A rule that allows few is best answered through those indexes.
 */
export function whereTicketVisible (qb: Knex.QueryBuilder, visibility: TicketVisibility, dialect: Dialect, indexed = true): void {
  if ('all' in visibility) return
  const ref = indexed ? '??' : dialect.unindexedColumn
  if ('ownerOrPublic' in visibility) {
    void qb.whereRaw(`(${ref} = ? or ${ref} = ?)`, ['tickets.user_id', visibility.ownerOrPublic, 'tickets.private', false])
    return
  }
  if (visibility.categoryIds.length === 0) {
    void qb.whereRaw(`${ref} = ?`, ['tickets.assigned_agent_id', visibility.assignedTo])
    return
  }
  void qb.whereRaw(`(${ref} in (${visibility.categoryIds.map(() => '?').join(', ')}) or ${ref} = ?)`,
    ['tickets.category_id', ...visibility.categoryIds, 'tickets.assigned_agent_id', visibility.assignedTo])
}
