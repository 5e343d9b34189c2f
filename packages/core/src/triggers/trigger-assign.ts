import type { AssignmentCandidate } from '../automation/assignee-picker.js'
import type { AssignStrategy } from '../automation/rule-actions.js'
import { nowString, type ServiceContext } from '../context.js'
import { recordTicketChanges } from '../history/ticket-history-recorder.js'
import type { Store } from '../store.js'
import { ticketEventFacts, TicketEventType, type TicketAssignedEvent, type TicketUpdatedEvent } from '../tickets/ticket-events.js'
import type { Ticket } from '../tickets/ticket.js'
import type { ActorInput, AutomationActor } from '../users/actor.js'

/**
 * Assigns the ticket to the agent `strategy` picks among its category's
 * available agents (round-robin or least open), moves that agent's turn
 * (`last_assigned_at`) and records and announces the change as `by`. Null
 * when nobody is available (the ticket stays as it is).
 */
export async function assignByStrategy (
  ctx: ServiceContext, tx: Store, by: AutomationActor | ActorInput, ticket: Ticket, strategy: AssignStrategy,
  pick: (strategy: AssignStrategy, candidates: AssignmentCandidate[]) => number | null
): Promise<Ticket | null> {
  const candidates = await tx.triggers.assignmentCandidates(ticket.category_id)
  const agentId = pick(strategy, candidates)
  if (agentId === null || agentId === ticket.assigned_agent_id) return null
  const now = nowString(ctx)
  const updated = await tx.tickets.update(ticket.id, { assigned_agent_id: agentId, agent_assigned_at: now })
  if (updated === null) return null
  await tx.triggers.markAssigned(agentId, now)
  await recordTicketChanges(tx, by, ticket, updated)
  const agent = await tx.users.findById(agentId)
  const category = await tx.categories.findById(updated.category_id) ?? { id: updated.category_id, name: '' }
  const rule = 'kind' in by && by.kind === 'automation' ? { rule: by.rule } : {}
  const facts = { ...ticketEventFacts(null, updated, category), ...rule }
  if (agent !== null) {
    await ctx.events.emit(tx, { type: TicketEventType.TicketAssigned, ...facts, agent: { id: agent.id, first_name: agent.first_name, last_name: agent.last_name } } satisfies TicketAssignedEvent)
  }
  await ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: ['assigned_agent_id'] } satisfies TicketUpdatedEvent)
  return updated
}
