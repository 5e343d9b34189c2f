import type { DateTimeString } from '../time.js'
import type { AssignStrategy } from './rule-actions.js'

/** An agent a ticket may be assigned to, with what the strategies weigh. */
export interface AssignmentCandidate {
  id: number
  /** False while the agent has switched themselves to away. */
  available: boolean
  /** Their open and pending tickets now. */
  open_tickets: number
  /** When a ticket was last assigned to them by a strategy (null: never). */
  last_assigned_at: DateTimeString | null
}

const assignedAt = (candidate: AssignmentCandidate): number => candidate.last_assigned_at === null ? Number.NEGATIVE_INFINITY : Date.parse(candidate.last_assigned_at)

/**
 * The agent a strategy picks among a category's agents, or null when none is
 * available. Round-robin takes the available agent whose last assignment is
 * the oldest (never assigned first), so the turn is kept in the agents' rows,
 * not in one process's memory, and survives restarts and several instances;
 * least-open takes the one with the fewest open tickets, then the oldest last
 * assignment. Ties go to the lower id, so the pick is deterministic.
 */
export function pickAssignee (strategy: AssignStrategy, candidates: AssignmentCandidate[]): number | null {
  const available = candidates.filter((candidate) => candidate.available)
  if (available.length === 0) return null
  const byTurn = (a: AssignmentCandidate, b: AssignmentCandidate) => (assignedAt(a) - assignedAt(b)) || (a.id - b.id)
  const sorted = [...available].sort(strategy === 'least_open' ? (a, b) => (a.open_tickets - b.open_tickets) || byTurn(a, b) : byTurn)
  return sorted[0]!.id
}
