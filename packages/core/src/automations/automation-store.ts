import type { TimeAnchor } from '../automation/time-rules.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { Automation, AutomationCandidate, AutomationDueCursor, AutomationDueFilter, AutomationValues } from './automation.js'

/** Storage port for automations and their marks (part of Store). */
export interface AutomationRepository {
  list(query: ListQuery): Promise<Page<WithIncludes<Automation>>>
  findById(id: number): Promise<Automation | null>
  active(): Promise<Automation[]>
  count(): Promise<number>
  create(values: AutomationValues): Promise<Automation>
  update(id: number, values: Partial<AutomationValues>): Promise<Automation | null>
  delete(id: number): Promise<boolean>
  /**
   * Tickets whose `anchor` is at or before `cutoff` (an index range: the
   * statuses narrow `status_changed`), in `filter.statuses` and
   * `filter.priorities` (null: any), and not marked by the automation for
   * their current anchor; oldest anchor first, then by id, after `after`
   * (the last of the page before: a run pages through its whole range).
   */
  due(automationId: number, anchor: TimeAnchor, cutoff: string, filter: AutomationDueFilter, limit: number, after?: AutomationDueCursor | null): Promise<AutomationCandidate[]>
  /** Remembers that the automation fired on the ticket for this anchor instant. */
  mark(automationId: number, ticketId: number, anchorAt: string): Promise<void>
}
