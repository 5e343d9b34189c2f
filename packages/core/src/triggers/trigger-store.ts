import type { Ticket } from '../tickets/ticket.js'
import type { AssignmentCandidate } from '../automation/assignee-picker.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { Trigger } from './trigger.js'

export type TriggerValues = Pick<Trigger, 'name' | 'position' | 'active' | 'events' | 'conditions' | 'actions'>

/** Storage port for triggers (part of Store). */
export interface TriggerRepository extends TriggerRunSupport {
  list(query: ListQuery): Promise<Page<WithIncludes<Trigger>>>
  findById(id: number): Promise<Trigger | null>
  /** Every trigger in order (position, then id). */
  all(): Promise<Trigger[]>
  /** The active triggers in the order a pass runs them (position, then id). */
  active(): Promise<Trigger[]>
  /** How many triggers there are (the cap on creating more). */
  count(): Promise<number>
  /** The position after the last one (new triggers go last). */
  nextPosition(): Promise<number>
  create(values: TriggerValues): Promise<Trigger>
  update(id: number, values: Partial<TriggerValues>): Promise<Trigger | null>
  delete(id: number): Promise<boolean>
}

/** Reads and writes of the rule runner that touch other tables (kept here so the runner needs one port). */
export interface TriggerRunSupport {
  /** Automatic mails (rules' replies: outbound, no author) to `recipient` since `since`. */
  automaticMailsSince(recipient: string, since: string): Promise<number>
  /** The category's agents (not banned) with availability, open tickets and round-robin turn: a fixed number of queries. */
  assignmentCandidates(categoryId: number): Promise<AssignmentCandidate[]>
  /** The latest tickets (by id, newest first) with their owner's email, for a dry run. */
  recentTickets(limit: number): Promise<Array<{ ticket: Ticket, customer_email: string | null }>>
  /** Moves the agent's round-robin turn. */
  markAssigned(agentId: number, at: string): Promise<void>
}
