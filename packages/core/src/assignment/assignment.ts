/** How a category's new tickets get an assignee (issue 32): by hand, or by a strategy over its available agents. */
export const ASSIGNMENT_MODES = ['manual', 'round_robin', 'least_open'] as const
export type AssignmentMode = typeof ASSIGNMENT_MODES[number]

export interface CategoryAssignment {
  category_id: number
  mode: AssignmentMode
}

export interface AgentAvailability {
  user_id: number
  available: boolean
  /** Tickets handed to other agents because this one went away. */
  reassigned: number[]
}

/** Storage port for assignment rules and availability (part of Store). */
export interface AssignmentRepository {
  /** The category's mode (null when there is no such category). */
  modeOf(categoryId: number): Promise<AssignmentMode | null>
  setMode(categoryId: number, mode: AssignmentMode): Promise<boolean>
  availabilityOf(userId: number): Promise<boolean | null>
  setAvailable(userId: number, available: boolean): Promise<void>
  /** Open and pending tickets assigned to the agent in categories whose mode is not manual, with that mode. */
  ticketsToReassign(userId: number, limit: number): Promise<Array<{ ticket_id: number, mode: Exclude<AssignmentMode, 'manual'> }>>
}
