import type { Priority } from '../automation/rule-conditions.js'
import type { Tag } from '../knowledge-base/article.js'
import type { ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { isStaff, type PersonSummary, type User } from '../users/user.js'
import { canAssignTickets, canSeeTicket, ticketScope } from './ticket-policy.js'
import type { TicketService } from './ticket-service.js'
import { checkedPriority, checkedTicketTags } from './ticket-tags.js'
import { isTicketStatus, TicketStatus, type Ticket } from './ticket.js'

/** How many tickets one bulk request may name. */
export const BULK_TICKET_LIMIT = 100

/**
 * The one action (exactly one key) applied to every ticket of a bulk request (`POST /tickets/bulk`),
 * each the same change as its single-ticket route: `assign` as
 * `PUT|DELETE /tickets/{id}/agents`, `status`, `close`, `priority` and `tags`
 * as `PATCH /tickets/{id}`, `delete` as `DELETE /tickets/{id}`.
 */
export interface BulkTicketAction {
  assign?: { assignee_id: number | null }
  status?: number
  close?: true
  priority?: Priority
  tags?: { add?: string[] | undefined, remove?: string[] | undefined }
  delete?: true
}

const BULK_ACTIONS = ['assign', 'status', 'close', 'priority', 'tags', 'delete'] as const

export interface BulkTicketInput {
  ids: number[]
  action: BulkTicketAction
}

/**
 * What happened to one ticket: done (the ticket as written; none after a
 * delete), or the error its single-ticket route would have answered with
 * (a `HelpdeskError`: 404 missing or invisible, 403 not allowed, 422 invalid),
 * or anything else that went wrong while writing it.
 */
export type BulkTicketOutcome =
  | { id: number, ok: true, ticket: Ticket | null }
  | { id: number, ok: false, error: unknown }

/** The action's own checks, done once for the request: 422 for the whole request. */
async function checkedAction (tickets: TicketService, action: BulkTicketAction): Promise<{ agent?: User | null, add?: string[], remove?: string[] }> {
  const named = BULK_ACTIONS.filter((key) => action[key] !== undefined)
  if (named.length !== 1) throw ValidationError.field('action', `Name exactly one action: ${BULK_ACTIONS.join(', ')}.`)
  const errors: FieldErrors = {}
  if (action.assign !== undefined) {
    const id = action.assign.assignee_id
    return { agent: id === null ? null : await tickets.assignableAgent(id, 'action.assign.assignee_id') }
  }
  if (action.status !== undefined && !isTicketStatus(action.status)) errors['action.status'] = ['The status must be 1 (Open), 2 (Pending) or 3 (Closed).']
  if (action.priority !== undefined) {
    const priorityErrors: FieldErrors = {}
    checkedPriority(priorityErrors, action.priority)
    if (priorityErrors.priority !== undefined) errors['action.priority'] = priorityErrors.priority
  }
  if (action.tags !== undefined) {
    const add = checkedTicketTags(errors, action.tags.add ?? [], 'action.tags.add')
    const remove = checkedTicketTags(errors, action.tags.remove ?? [], 'action.tags.remove')
    if (add.length === 0 && remove.length === 0 && Object.keys(errors).length === 0) errors['action.tags'] = ['Name at least one tag to add or remove.']
    throwIfInvalid(errors)
    return { add, remove }
  }
  throwIfInvalid(errors)
  return {}
}

function checkedIds (ids: number[]): number[] {
  if (ids.length === 0) throw ValidationError.field('ids', 'The ids must have at least 1 item(s).')
  if (ids.length > BULK_TICKET_LIMIT) throw ValidationError.field('ids', `The ids may not have more than ${BULK_TICKET_LIMIT} items.`)
  if (new Set(ids).size !== ids.length) throw ValidationError.field('ids', 'The ids must not repeat.')
  return ids
}

/**
 * Applies one action to many tickets for staff (customers: 403), each ticket
 * in its own transaction through the same service method as its single-ticket
 * route, so every rule, history row, SLA clock, trigger and event is the one
 * those write. Permission is checked per ticket: a ticket that is missing,
 * invisible to the caller, refused or invalid gets an error outcome and the
 * others go on. The tickets are read in one query, the caller's scope once,
 * and the staff of each category once.
 * Outcomes come in the order of `input.ids`.
 */
export async function applyBulkTicketAction (ctx: ServiceContext, tickets: TicketService, caller: ActorInput, input: BulkTicketInput): Promise<BulkTicketOutcome[]> {
  const actor = requirePerson(caller)
  if (!isStaff(actor)) throw new ForbiddenError('Only staff may change tickets in bulk.')
  const ids = checkedIds(input.ids)
  const { action } = input
  const checked = await checkedAction(tickets, action)
  const scope = await ticketScope(ctx.store, actor)
  const found = new Map((await ctx.store.tickets.findByIds(ids)).map((ticket) => [ticket.id, ticket]))
  const visible = [...found.values()].filter((ticket) => canSeeTicket(scope.tickets, ticket))
  const tagsBefore = action.tags !== undefined && visible.length > 0 ? await ctx.store.tickets.tagsOf(visible.map((ticket) => ticket.id)) : new Map<number, Tag[]>()
  const staffByCategory = new Map<number, Promise<PersonSummary[]>>()
  const staffOf = async (categoryId: number): Promise<PersonSummary[]> => {
    let staff = staffByCategory.get(categoryId)
    if (staff === undefined) staffByCategory.set(categoryId, staff = ctx.store.users.staffOfCategory(categoryId))
    return await staff
  }

  const apply = async (ticket: Ticket): Promise<Ticket | null> => {
    if (action.assign !== undefined) {
      if (checked.agent === null || checked.agent === undefined) return await tickets.unassignVisible(actor, ticket, 'action.assign.assignee_id')
      // Refused before the category's staff are read: an agent without `assign_tickets` costs no query per ticket.
      if (!canAssignTickets(actor)) throw new ForbiddenError()
      return await tickets.assignVisible(actor, ticket, checked.agent, await staffOf(ticket.category_id), 'action.assign.assignee_id')
    }
    if (action.delete !== undefined) {
      await tickets.deleteVisible(actor, ticket)
      return null
    }
    if (action.close !== undefined) return await tickets.updateVisible(actor, ticket, { status: TicketStatus.Closed })
    if (action.status !== undefined) return await tickets.updateVisible(actor, ticket, { status: action.status })
    if (action.priority !== undefined) return await tickets.updateVisible(actor, ticket, { priority: action.priority })
    const before = (tagsBefore.get(ticket.id) ?? []).map((tag) => tag.name)
    const removed = new Set(checked.remove)
    const names = [...before.filter((name) => !removed.has(name)), ...(checked.add ?? []).filter((name) => !before.includes(name))]
    return await tickets.updateVisible(actor, ticket, { tags: names })
  }

  const outcomes: BulkTicketOutcome[] = []
  for (const id of ids) {
    const ticket = found.get(id)
    try {
      if (ticket === undefined || !canSeeTicket(scope.tickets, ticket)) throw new NotFoundError('Ticket')
      outcomes.push({ id, ok: true, ticket: await apply(ticket) })
    } catch (error) {
      outcomes.push({ id, ok: false, error })
    }
  }
  return outcomes
}
