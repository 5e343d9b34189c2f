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
  const ids = visibility.categoryIds.map(() => '?').join(', ')
  if (indexed) {
    void qb.whereRaw(`(${ref} in (${ids}) or ${ref} = ?)`, ['tickets.category_id', ...visibility.categoryIds, 'tickets.assigned_agent_id', visibility.assignedTo])
    return
  }
  // As a per-row filter, the rule first asks (once a query: the subquery does not depend on the row) whether the agent
  // covers every category: then every ticket passes without its own test (a ticket's category is never null). Not on the
  // indexed path, where this term would keep the planner from answering the OR through the category and agent indexes.
  void qb.whereRaw(`(${coversEveryCategorySql(`categories.id in (${ids})`)} or ${ref} in (${ids}) or ${ref} = ?)`,
    [...visibility.categoryIds, 'tickets.category_id', ...visibility.categoryIds, 'tickets.assigned_agent_id', visibility.assignedTo])
}

/**
 * True when every category satisfies `covered` (SQL testing `categories.id`
 * against the agent's list): the agent covers them all. Uncorrelated, so the
 * database runs it once per statement.
 */
export function coversEveryCategorySql (covered: string): string {
  return `not exists (select 1 from categories where not (${covered}))`
}
