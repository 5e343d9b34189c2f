import { applyRuleActions, ruleTicketChanges, type RuleAction, type RuleChange } from '../automation/rule-actions.js'
import type { RuleTicket } from '../automation/rule-conditions.js'
import { placeholderValues, renderPlaceholders } from '../canned-responses/placeholders.js'
import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { Tag } from '../knowledge-base/article.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { CommentService } from '../tickets/comment-service.js'
import { CommentType } from '../tickets/comment.js'
import {
  ticketEventFacts, TicketEventType, type TicketAssignedEvent, type TicketClosedByAgentEvent, type TicketUpdatedEvent
} from '../tickets/ticket-events.js'
import { answerProblem } from '../tickets/ticket-fields.js'
import { ensureNotMerged } from '../tickets/ticket-merge.js'
import { canAssignTickets, canChangeTicketPrivacy, canComment, visibleTicket } from '../tickets/ticket-policy.js'
import type { TicketPatch } from '../tickets/ticket-store.js'
import { checkedTicketTags } from '../tickets/ticket-tags.js'
import { ticketWithTagNames, ticketWithTags } from '../tickets/ticket-tag-events.js'
import { TicketStatus, withRecordedDue, type Ticket } from '../tickets/ticket.js'
import { recordTicketChanges } from '../history/ticket-history-recorder.js'
import { automationActor, requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { ensure, ensureStaff } from '../users/user-policy.js'
import { isStaff, UserStatus } from '../users/user.js'
import type { Macro, MacroInput, MacroPatch } from './macro.js'
import { macroValues } from './macro-input.js'
import { ensureCanManageMacro, macroScope } from './macro-policy.js'

/** `Tickets.TicketUpdated` of a macro: besides `changes`, what each field was and became (for history). */
export interface MacroTicketUpdatedEvent extends TicketUpdatedEvent {
  rule: { type: 'macro', id: number, name: string }
  rule_changes: RuleChange[]
}

/** The ticket as rules see it. */
export function ruleTicketOf (ticket: Ticket, tags: readonly Tag[]): RuleTicket {
  return {
    id: ticket.id,
    status: ticket.status,
    category_id: ticket.category_id,
    assigned_agent_id: ticket.assigned_agent_id,
    priority: ticket.priority,
    tags: tags.map((tag) => tag.name),
    fields: { ...(ticket.additional.fields ?? {}) },
    title: ticket.title,
    private: ticket.private
  }
}

/**
 * Macros (issue 32): CRUD for staff (shared ones by administrators) and
 * `apply`, which carries out a macro's actions on one ticket in one
 * transaction: all of them, or none.
 */
export class MacroService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Macro>>> {
    return await this.ctx.store.macros.list(macroScope(actor), query)
  }

  async view (actor: ActorInput, id: number): Promise<Macro> {
    const macro = await this.ctx.store.macros.findVisible(macroScope(actor), id)
    if (macro === null) throw new NotFoundError('Macro')
    return macro
  }

  /** A personal macro for any staff member; a shared one (`shared: true`) for administrators. */
  async create (caller: ActorInput, input: MacroInput): Promise<Macro> {
    const actor = requirePerson(caller)
    macroScope(actor)
    const values = macroValues({ name: '', shared: false, actions: [] }, { ...input, actions: input.actions ?? null })
    ensureCanManageMacro(actor, { shared: values.shared, user_id: actor.id })
    return await this.ctx.store.macros.create({ ...values, user_id: actor.id })
  }

  async update (actor: ActorInput, id: number, patch: MacroPatch): Promise<Macro> {
    return await this.ctx.store.transaction(async (tx) => {
      const current = await manageable(tx, actor, id)
      const values = macroValues(current, patch)
      // Sharing a personal macro, or making a shared one personal, is an administrator's call.
      if (values.shared !== current.shared) ensureCanManageMacro(actor, { shared: true, user_id: current.user_id })
      const updated = await tx.macros.update(id, values)
      if (updated === null) throw new NotFoundError('Macro')
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    await this.ctx.store.transaction(async (tx) => {
      await manageable(tx, actor, id)
      await tx.macros.delete(id)
    })
  }

  /**
   * Applies the macro to the ticket, in one transaction: the field actions
   * (status, priority, category, custom fields, tags, privacy, assignee),
   * then each note or reply (placeholders filled as for canned responses,
   * against the ticket as the macro leaves it), written by the caller through
   * the comment service. A status the macro sets wins over the one a reply
   * would move the ticket to. Each action is checked against the caller's
   * rights first (assigning needs `assign_tickets`); a failing action leaves
   * nothing written. Events carry `rule: {type: 'macro', id, name}`.
   */
  async apply (caller: ActorInput, ticketId: number, macroId: number): Promise<Ticket & { tags: Tag[] }> {
    const actor = requirePerson(caller)
    ensureStaff(actor)
    const macro = await this.view(actor, macroId)
    const { ticket: seen } = await visibleTicket(this.ctx.store, actor, ticketId)
    ensureNotMerged(seen, 'id')
    for (const action of macro.actions) this.ensureMay(actor, seen, action)
    const rule = automationActor({ type: 'macro', id: macro.id, name: macro.name }).rule as MacroTicketUpdatedEvent['rule']

    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const ticket = await tx.tickets.findById(ticketId)
      if (ticket === null) throw new NotFoundError('Ticket')
      ensureNotMerged(ticket, 'id')
      const tags = (await tx.tickets.tagsOf([ticketId])).get(ticketId) ?? []
      const before = ruleTicketOf(ticket, tags)
      const { ticket: next, effects } = applyRuleActions(before, macro.actions)
      const patch = await this.checkedPatch(tx, ticket, before, next)

      let current = ticket
      let currentTags = tags
      const changes = ruleTicketChanges(before, next)
      if (Object.keys(patch).length > 0) current = await tx.tickets.update(ticketId, patch) ?? current
      if (changes.some((change) => change.field === 'tags')) currentTags = await tx.tickets.setTags(ticketId, next.tags)
      await recordTicketChanges(tx, actor, ticketWithTagNames(ticket, tags), ticketWithTagNames(current, currentTags), rule)
      if (changes.length > 0) {
        const category = await tx.categories.findById(current.category_id) ?? { id: current.category_id, name: '' }
        const facts = { ...ticketEventFacts(actor.id, ticketWithTags(current, currentTags), category), rule }
        const fieldNames = [...new Set(changes.map((change) => change.field.startsWith('field:') ? 'additional' : change.field))]
        await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: fieldNames, rule_changes: changes } satisfies MacroTicketUpdatedEvent)
        if (patch.assigned_agent_id !== undefined && patch.assigned_agent_id !== null) {
          const agent = await tx.users.findById(patch.assigned_agent_id)
          if (agent !== null) {
            await this.ctx.events.emit(tx, {
              type: TicketEventType.TicketAssigned, ...facts, agent: { id: agent.id, first_name: agent.first_name, last_name: agent.last_name }
            } satisfies TicketAssignedEvent)
          }
        }
        if (current.status === TicketStatus.Closed && ticket.status !== TicketStatus.Closed) {
          await this.ctx.events.emit(tx, { type: TicketEventType.TicketClosedByAgent, ...facts } satisfies TicketClosedByAgentEvent)
        }
        // The SLA recorder moved the due times on the event's copy of the ticket (a status or category change re-evaluates them).
        current = withRecordedDue(current, facts.ticket)
      }

      if (effects.length > 0) {
        const comments = new CommentService({ ...this.ctx, store: tx })
        const category = await tx.categories.findById(current.category_id)
        const customer = await tx.users.findById(current.user_id)
        const assigned = current.assigned_agent_id === null ? null : await tx.users.findById(current.assigned_agent_id)
        const values = placeholderValues({ ticket: current, category, customer, agent: assigned ?? actor })
        for (const effect of effects) {
          if (effect.type !== 'add_note' && effect.type !== 'reply') continue
          await comments.create(actor, ticketId, {
            body: renderPlaceholders(effect.body, values),
            type: effect.type === 'reply' ? CommentType.Reply : CommentType.Note
          }, { rule })
        }
        current = await tx.tickets.findById(ticketId) ?? current
        // A reply moves an Open ticket to Pending: a status the macro sets (even the one the ticket had) stands.
        const explicit = macro.actions.findLast((action) => action.type === 'set_status')
        if (explicit !== undefined && current.status !== explicit.value) {
          const replied = current
          current = await tx.tickets.update(ticketId, { status: explicit.value as TicketPatch['status'] }) ?? current
          await recordTicketChanges(tx, actor, ticketWithTagNames(replied, currentTags), ticketWithTagNames(current, currentTags), rule)
          const category = await tx.categories.findById(current.category_id) ?? { id: current.category_id, name: '' }
          const evented = ticketWithTags(current, currentTags)
          await this.ctx.events.emit(tx, {
            type: TicketEventType.TicketUpdated,
            ...ticketEventFacts(actor.id, evented, category),
            rule,
            changes: ['status'],
            rule_changes: []
          } satisfies MacroTicketUpdatedEvent)
          current = withRecordedDue(current, evented)
        }
      }
      return ticketWithTags(current, currentTags)
    })
  }

  /** 403 unless the caller may do what the action does. */
  private ensureMay (actor: PersonActor, ticket: Ticket, action: RuleAction): void {
    switch (action.type) {
      case 'assign': ensure(canAssignTickets(actor), 'Assigning a ticket needs the assign_tickets permission.'); break
      case 'set_private': ensure(canChangeTicketPrivacy(actor, ticket)); break
      case 'add_note': ensure(canComment(actor, ticket, CommentType.Note)); break
      case 'reply': ensure(canComment(actor, ticket, CommentType.Reply)); break
      default: ensure(isStaff(actor))
    }
  }

  /** The patch that takes the ticket from `before` to `next`, its targets checked (422 on `actions`). */
  private async checkedPatch (tx: Store, ticket: Ticket, before: RuleTicket, next: RuleTicket): Promise<TicketPatch> {
    const errors: FieldErrors = {}
    const patch: TicketPatch = {}
    if (next.status !== before.status) patch.status = next.status as TicketPatch['status']
    if (next.priority !== before.priority) patch.priority = next.priority
    if (next.private !== before.private) patch.private = next.private
    if (next.category_id !== before.category_id) {
      if (await tx.categories.findById(next.category_id) === null) errors.actions = ['The macro sets a category that no longer exists.']
      else patch.category_id = next.category_id
    }
    if (next.assigned_agent_id !== before.assigned_agent_id) {
      if (next.assigned_agent_id !== null) {
        const agent = await tx.users.findById(next.assigned_agent_id)
        if (agent === null || !isStaff(agent) || agent.status === UserStatus.Banned) errors.actions = ['The macro assigns someone who is not an active agent.']
      }
      patch.assigned_agent_id = next.assigned_agent_id
      patch.agent_assigned_at = next.assigned_agent_id === null ? null : nowString(this.ctx)
    }
    const changedFields = Object.keys(next.fields).filter((id) => next.fields[id] !== before.fields[id])
    if (changedFields.length > 0) {
      const fields = await tx.customFields.forCategory(next.category_id)
      for (const id of changedFields) {
        const field = fields.find((f) => String(f.id) === id)
        const problem = field === undefined ? 'The macro sets a field that does not belong to the ticket\'s category.' : answerProblem(field, next.fields[id] ?? '')
        if (problem !== null) errors[`fields.${id}`] = [problem]
      }
      const answers = Object.fromEntries(Object.entries(next.fields).filter(([, value]) => value !== ''))
      patch.additional = { ...ticket.additional, fields: answers }
    }
    if (next.tags.length !== before.tags.length || next.tags.some((tag) => !before.tags.includes(tag))) checkedTicketTags(errors, next.tags)
    throwIfInvalid(errors)
    return patch
  }
}

/** A macro the caller sees (404 otherwise) and may manage (403 otherwise). */
async function manageable (store: Store, actor: ActorInput, id: number): Promise<Macro> {
  const macro = await store.macros.findVisible(macroScope(actor), id)
  if (macro === null) throw new NotFoundError('Macro')
  ensureCanManageMacro(actor, macro)
  return macro
}
