import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { requireSignedIn, type ActorInput } from '../users/actor.js'
import { ensureAdmin } from '../users/user-policy.js'
import { TRIGGER_LIMITS, type Trigger, type TriggerInput, type TriggerPatch } from './trigger.js'
import { applyRuleActions, ruleActions, type RuleChange } from '../automation/rule-actions.js'
import { conditionsHold, ruleConditions } from '../automation/rule-conditions.js'
import { ruleTicketOf } from '../macros/macro-service.js'

/** How many of the latest tickets a dry run evaluates. */
export const DRY_RUN_TICKETS = 50

/** What a dry run found: how many tickets it looked at, which matched and what the actions would change. */
export interface TriggerDryRun {
  evaluated: number
  matches: Array<{ ticket_id: number, title: string, changes: RuleChange[] }>
}
import { triggerValues } from './trigger-input.js'

function admin (actor: ActorInput): void {
  requireSignedIn(actor)
  ensureAdmin(actor)
}

/**
 * Triggers (issue 32), managed by administrators; every change is in the
 * audit log. They run in the transaction of each ticket change
 * (`runTriggersOnChange`).
 */
export class TriggerService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Trigger>>> {
    admin(actor)
    return await this.ctx.store.triggers.list(query)
  }

  async view (actor: ActorInput, id: number): Promise<Trigger> {
    admin(actor)
    return await this.ctx.store.triggers.findById(id) ?? notFound()
  }

  /** A new trigger, last in the order unless `position` says otherwise. */
  async create (actor: ActorInput, input: TriggerInput): Promise<Trigger> {
    admin(actor)
    return await this.ctx.store.transaction(async (tx) => {
      if (await tx.triggers.count() >= TRIGGER_LIMITS.count) throw ValidationError.field('name', `At most ${TRIGGER_LIMITS.count} triggers.`)
      const position = input.position ?? await tx.triggers.nextPosition()
      const values = triggerValues({ name: '', position, active: true, events: [], conditions: { all: [], any: [] }, actions: [] }, {
        ...input, events: input.events ?? null, actions: input.actions ?? null, conditions: input.conditions ?? { all: [], any: [] }
      })
      const created = await tx.triggers.create(values)
      await audit(tx, actor, { action: 'trigger.created', subject_type: 'trigger', subject_id: created.id, after: created })
      return created
    })
  }

  async update (actor: ActorInput, id: number, patch: TriggerPatch): Promise<Trigger> {
    admin(actor)
    return await this.ctx.store.transaction(async (tx) => {
      const current = await tx.triggers.findById(id) ?? notFound()
      const values = triggerValues(current, patch)
      const updated = await tx.triggers.update(id, values) ?? notFound()
      await audit(tx, actor, { action: 'trigger.updated', subject_type: 'trigger', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    admin(actor)
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.triggers.findById(id) ?? notFound()
      await tx.triggers.delete(id)
      await audit(tx, actor, { action: 'trigger.deleted', subject_type: 'trigger', subject_id: id, before })
    })
  }

  /**
   * Evaluates conditions (and the actions' field changes) on the latest 50
   * tickets as a `ticket.updated` change through the console, writing
   * nothing: which tickets would match, and what would change.
   */
  async dryRun (actor: ActorInput, input: { conditions?: unknown, actions?: unknown }): Promise<TriggerDryRun> {
    admin(actor)
    const conditions = ruleConditions(input.conditions ?? { all: [], any: [] })
    const actions = input.actions === undefined ? [] : ruleActions(input.actions, 'actions', { allowEmpty: true })
    const recent = await this.ctx.store.triggers.recentTickets(DRY_RUN_TICKETS)
    const tags = await this.ctx.store.tickets.tagsOf(recent.map((item) => item.ticket.id))
    const matches: TriggerDryRun['matches'] = []
    for (const { ticket, customer_email: customerEmail } of recent) {
      const rule = ruleTicketOf(ticket, tags.get(ticket.id) ?? [])
      const facts = { event: 'ticket.updated' as const, channel: 'console' as const, ticket: rule, previous: rule, customer_email: customerEmail, comment_text: null, within_business_hours: true }
      if (!conditionsHold(conditions, facts)) continue
      matches.push({ ticket_id: ticket.id, title: ticket.title, changes: applyRuleActions(rule, actions).changes })
    }
    return { evaluated: recent.length, matches }
  }

  /**
   * Puts the triggers in the order of `ids` (positions 0, 1, ...); triggers
   * not listed keep their relative order after them. One audit entry.
   */
  async reorder (actor: ActorInput, ids: number[]): Promise<Trigger[]> {
    admin(actor)
    if (!Array.isArray(ids) || ids.length === 0 || new Set(ids).size !== ids.length) throw ValidationError.field('ids', 'Give the trigger ids in their new order, each once.')
    return await this.ctx.store.transaction(async (tx) => {
      const all = await tx.triggers.all()
      const known = new Set(all.map((trigger) => trigger.id))
      const missing = ids.filter((id) => !known.has(id))
      if (missing.length > 0) throw ValidationError.field('ids', `Unknown triggers: ${missing.join(', ')}.`)
      const listed = new Set(ids)
      const order = [...ids, ...all.filter((trigger) => !listed.has(trigger.id)).map((trigger) => trigger.id)]
      const before = all.map((trigger) => ({ id: trigger.id, position: trigger.position }))
      const out: Trigger[] = []
      for (const [position, id] of order.entries()) {
        const current = all.find((trigger) => trigger.id === id)
        out.push(current?.position === position ? current : await tx.triggers.update(id, { position }) ?? notFound())
      }
      await audit(tx, actor, { action: 'trigger.reordered', subject_type: 'trigger', subject_id: null, before, after: order.map((id, position) => ({ id, position })) })
      return out
    })
  }
}

function notFound (): never {
  throw new NotFoundError('Trigger')
}
