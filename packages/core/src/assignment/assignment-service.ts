import { audit } from '../audit/audit-log.js'
import { pickAssignee } from '../automation/assignee-picker.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { Store } from '../store.js'
import type { Ticket } from '../tickets/ticket.js'
import { assignByStrategy } from '../triggers/trigger-assign.js'
import { requirePerson, requireSignedIn, systemActor, type ActorInput } from '../users/actor.js'
import { ensure, ensureAdmin } from '../users/user-policy.js'
import { isStaff } from '../users/user.js'
import { ASSIGNMENT_MODES, type AgentAvailability, type AssignmentMode, type CategoryAssignment } from './assignment.js'

/** Who history names for a rule's assignment: the help desk's assignment rules. */
export const ASSIGNMENT_ACTOR = systemActor('assignment')

/** At most this many tickets are handed over when an agent goes away (the rest stay; a later switch hands more). */
export const REASSIGN_LIMIT = 500

/**
 * Applies the category's assignment rule to a new, unassigned ticket inside
 * its transaction (called by the trigger hook after the triggers ran): the
 * ticket as assigned, or as it was.
 */
export async function applyAssignmentRule (ctx: ServiceContext, tx: Store, ticket: Ticket): Promise<Ticket> {
  if (ticket.assigned_agent_id !== null) return ticket
  const mode = await tx.assignment.modeOf(ticket.category_id)
  if (mode === null || mode === 'manual') return ticket
  return await assignByStrategy(ctx, tx, ASSIGNMENT_ACTOR, ticket, mode, pickAssignee) ?? ticket
}

/**
 * Assignment rules per category (administrators) and the agents' "away"
 * switch: going away hands the agent's open tickets in categories with a
 * rule to the next available agent by that rule.
 */
export class AssignmentService {
  constructor (private readonly ctx: ServiceContext) {}

  async view (actor: ActorInput, categoryId: number): Promise<CategoryAssignment> {
    requireSignedIn(actor)
    ensureAdmin(actor)
    const mode = await this.ctx.store.assignment.modeOf(categoryId)
    if (mode === null) throw new NotFoundError('Category')
    return { category_id: categoryId, mode }
  }

  async setMode (actor: ActorInput, categoryId: number, mode: string): Promise<CategoryAssignment> {
    requireSignedIn(actor)
    ensureAdmin(actor)
    if (!(ASSIGNMENT_MODES as readonly string[]).includes(mode)) throw ValidationError.field('mode', `The mode must be one of ${ASSIGNMENT_MODES.join(', ')}.`)
    return await this.ctx.store.transaction(async (tx) => {
      const before = await tx.assignment.modeOf(categoryId)
      if (before === null) throw new NotFoundError('Category')
      await tx.assignment.setMode(categoryId, mode as AssignmentMode)
      await audit(tx, actor, { action: 'category.assignment_changed', subject_type: 'category', subject_id: categoryId, before: { mode: before }, after: { mode } })
      return { category_id: categoryId, mode: mode as AssignmentMode }
    })
  }

  async availability (caller: ActorInput, userId: number): Promise<{ user_id: number, available: boolean }> {
    const actor = requirePerson(caller)
    ensure(actor.id === userId || isStaff(actor))
    const agent = await this.ctx.store.users.findById(userId)
    const available = agent !== null && isStaff(agent) ? await this.ctx.store.assignment.availabilityOf(userId) : null
    if (available === null) throw new NotFoundError('Agent')
    return { user_id: userId, available }
  }

  /** The agent themselves, or an administrator, switches them away or back. */
  async setAvailable (caller: ActorInput, userId: number, available: boolean): Promise<AgentAvailability> {
    const actor = requirePerson(caller)
    if (actor.id !== userId) ensureAdmin(actor)
    if (typeof available !== 'boolean') throw ValidationError.field('available', 'available must be true or false.')
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const agent = await tx.users.findById(userId)
      if (agent === null || !isStaff(agent)) throw new NotFoundError('Agent')
      const before = await tx.assignment.availabilityOf(userId)
      await tx.assignment.setAvailable(userId, available)
      const reassigned: number[] = []
      if (!available && before !== false) {
        for (const { ticket_id: ticketId, mode } of await tx.assignment.ticketsToReassign(userId, REASSIGN_LIMIT)) {
          const ticket = await tx.tickets.findById(ticketId)
          if (ticket === null) continue
          if (await assignByStrategy(this.ctx, tx, ASSIGNMENT_ACTOR, ticket, mode, pickAssignee) !== null) reassigned.push(ticketId)
        }
      }
      if (before !== available) await audit(tx, actor, { action: 'agent.availability_changed', subject_type: 'user', subject_id: userId, before: { available: before }, after: { available, reassigned } })
      return { user_id: userId, available, reassigned }
    })
  }
}
