import { audit } from '../audit/audit-log.js'
import { applyRuleActions, ruleActions } from '../automation/rule-actions.js'
import { conditionsHold, ruleConditions, type Priority, type RuleConditions } from '../automation/rule-conditions.js'
import { automationFires, timeCondition, timeConditionCutoff, type AutomationMark, type TicketInstants } from '../automation/time-rules.js'
import type { ServiceContext } from '../context.js'
import { collectFieldErrors, NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { ruleTicketOf } from '../macros/macro-service.js'
import type { Tag } from '../knowledge-base/article.js'
import type { WithIncludes } from '../store.js'
import { requiredPlainText } from '../text-input.js'
import { formatDateTime, parseDateTime } from '../time.js'
import type { BusinessCalendar } from '../sla/calendar.js'
import { conditionsAskBusinessHours, ticketCalendars, withinBusinessHours } from '../sla/ticket-business-hours.js'
import { runTriggerEffect } from '../triggers/trigger-effects.js'
import { writeRuleChanges } from '../triggers/trigger-runner.js'
import { automationActor, requireSignedIn, type ActorInput } from '../users/actor.js'
import { ensureAdmin } from '../users/user-policy.js'
import {
  AUTOMATION_LIMITS, type Automation, type AutomationCandidate, type AutomationDueCursor, type AutomationDueFilter, type AutomationInput, type AutomationPatch, type AutomationValues
} from './automation.js'
import { dueTestsOf } from './due-filter.js'

function admin (actor: ActorInput): void {
  requireSignedIn(actor)
  ensureAdmin(actor)
}

/** An automation's values after a create or update, validated by the rule language. */
export function automationValues (current: AutomationValues, patch: AutomationPatch): AutomationValues {
  const errors: FieldErrors = {}
  const name = patch.name !== undefined ? requiredPlainText(errors, 'name', patch.name, AUTOMATION_LIMITS.name) : current.name
  const time = patch.time_condition !== undefined ? collectFieldErrors(errors, () => timeCondition(patch.time_condition)) : current.time_condition
  if (time?.anchor === 'due') errors['time_condition.anchor'] = ['Tickets have no due time to measure from yet: use created, updated, status_changed or assigned.']
  const conditions = patch.conditions !== undefined ? collectFieldErrors(errors, () => ruleConditions(patch.conditions)) : current.conditions
  const actions = patch.actions !== undefined ? collectFieldErrors(errors, () => ruleActions(patch.actions)) : current.actions
  if (patch.active !== undefined && typeof patch.active !== 'boolean') errors.active = ['active must be true or false.']
  throwIfInvalid(errors)
  return { name, active: patch.active ?? current.active, time_condition: time ?? current.time_condition, conditions: conditions ?? current.conditions, actions: actions ?? current.actions }
}

/** The statuses the conditions require (`status is` / `status in` in `all`), so the due query reads an index range per status. */
export function requiredStatuses (conditions: RuleConditions): number[] | null {
  for (const condition of conditions.all) {
    if (condition.field !== 'status') continue
    if (condition.operator === 'is' && typeof condition.value === 'number') return [condition.value]
    if (condition.operator === 'in' && Array.isArray(condition.value)) return condition.value as number[]
  }
  return null
}

/** The priorities the conditions require (`priority is` / `in` in `all`): filtered in the due query, not ticket by ticket. */
export function requiredPriorities (conditions: RuleConditions): Priority[] | null {
  for (const condition of conditions.all) {
    if (condition.field !== 'priority') continue
    if (condition.operator === 'is') return [condition.value as Priority]
    if (condition.operator === 'in') return [...condition.value]
  }
  return null
}

/** What the due query filters on for these conditions (the rest are evaluated on the tickets it returns). */
export function dueFilterOf (conditions: RuleConditions): AutomationDueFilter {
  const tags = conditions.all.flatMap((condition) => condition.field === 'tags' ? [{ operator: condition.operator, value: condition.value }] : [])
  return { statuses: requiredStatuses(conditions), priorities: requiredPriorities(conditions), tags, ...dueTestsOf(conditions) }
}

/** Tickets read per page of a run's time range. */
export const AUTOMATION_PAGE = 1000

const iso = (value: string | null): string | null => value === null ? null : new Date(parseDateTime(value)).toISOString()
const instantsOf = (candidate: AutomationCandidate): TicketInstants => Object.fromEntries(Object.entries(candidate.instants).map(([key, value]) => [key, iso(value)])) as TicketInstants
const markOf = (candidate: AutomationCandidate): AutomationMark | null => candidate.mark === null ? null : { anchor_at: iso(candidate.mark) as string }

/** What one run did. */
export interface AutomationRunResult {
  /** Per automation: the tickets it fired on. */
  fired: Array<{ automation_id: number, ticket_ids: number[] }>
}

/**
 * Time-based automations: CRUD for administrators (audited) and `run`, what
 * the recurring job calls every `AUTOMATION_INTERVAL_MS`.
 */
export class AutomationService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Automation>>> {
    admin(actor)
    return await this.ctx.store.automations.list(query)
  }

  async view (actor: ActorInput, id: number): Promise<Automation> {
    admin(actor)
    return await this.ctx.store.automations.findById(id) ?? notFound()
  }

  async create (actor: ActorInput, input: AutomationInput): Promise<Automation> {
    admin(actor)
    return await this.ctx.store.transaction(async (tx) => {
      if (await tx.automations.count() >= AUTOMATION_LIMITS.count) throw ValidationError.field('name', `At most ${AUTOMATION_LIMITS.count} automations.`)
      const values = automationValues({ name: '', active: true, time_condition: { anchor: 'created', hours: 0, business: false }, conditions: { all: [], any: [] }, actions: [] }, {
        ...input, time_condition: input.time_condition ?? null, actions: input.actions ?? null, conditions: input.conditions ?? { all: [], any: [] }
      })
      const created = await tx.automations.create(values)
      await audit(tx, actor, { action: 'automation.created', subject_type: 'automation', subject_id: created.id, after: created })
      return created
    })
  }

  async update (actor: ActorInput, id: number, patch: AutomationPatch): Promise<Automation> {
    admin(actor)
    return await this.ctx.store.transaction(async (tx) => {
      const current = await tx.automations.findById(id) ?? notFound()
      const updated = await tx.automations.update(id, automationValues(current, patch)) ?? notFound()
      await audit(tx, actor, { action: 'automation.updated', subject_type: 'automation', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    admin(actor)
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.automations.findById(id) ?? notFound()
      await tx.automations.delete(id)
      await audit(tx, actor, { action: 'automation.deleted', subject_type: 'automation', subject_id: id, before })
    })
  }

  /**
   * One run: per active automation, the tickets due by its time condition
   * (an index range, the statuses and priorities its conditions require
   * filtered in SQL, its marks left out), page by page through the whole
   * range, judged on each page with batched reads; each that passes fires in
   * its own transaction (read and judged again there), as the automation
   * (history door `automation`), and is marked with the anchor it fired on,
   * so it fires once until re-armed. At most `AUTOMATION_LIMITS.perRun`
   * fire per automation and run; the rest fire at the next.
   */
  async run (options: { pageSize?: number } = {}): Promise<AutomationRunResult> {
    const pageSize = options.pageSize ?? AUTOMATION_PAGE
    const now = this.ctx.clock.now()
    const { store } = this.ctx
    const result: AutomationRunResult = { fired: [] }
    for (const automation of await store.automations.active()) {
      const condition = automation.time_condition
      if (condition.anchor === 'due') continue
      const cutoff = formatDateTime(timeConditionCutoff(condition, now))
      const filter = dueFilterOf(automation.conditions)
      const ticketIds: number[] = []
      let after: AutomationDueCursor | null = null
      // Page through the whole range (keyset: anchor, then id), so tickets the conditions leave out never hide newer ones.
      while (ticketIds.length < AUTOMATION_LIMITS.perRun) {
        const page = await store.automations.due(automation.id, condition.anchor, cutoff, filter, pageSize, after)
        const { matches, calendars } = await this.matching(automation, page, now)
        for (const candidate of matches) {
          if (ticketIds.length >= AUTOMATION_LIMITS.perRun) break
          if (await this.fire(automation, candidate, now, calendars.get(candidate.ticket.id) ?? null)) ticketIds.push(candidate.ticket.id)
        }
        const last = page.at(-1)
        const at = last?.instants[condition.anchor]
        if (page.length < pageSize || last === undefined || at === null || at === undefined) break
        if (after !== null && after.anchor_at === at && after.id === last.ticket.id) break
        after = { anchor_at: at, id: last.ticket.id }
      }
      result.fired.push({ automation_id: automation.id, ticket_ids: ticketIds })
    }
    return result
  }

  /**
   * The candidates of a page the automation would fire on, judged on what the
   * page read plus two batched reads (their tags; their owners when a
   * condition reads the address): no transaction for the ones it leaves
   * out. `fire` judges each again on a fresh read, in its transaction.
   */
  private async matching (automation: Automation, page: AutomationCandidate[], now: Date): Promise<{ matches: AutomationCandidate[], calendars: Map<number, BusinessCalendar | null> }> {
    if (page.length === 0) return { matches: [], calendars: new Map() }
    const { store } = this.ctx
    const ids = page.map((candidate) => candidate.ticket.id)
    const fields = [...automation.conditions.all, ...automation.conditions.any].map((c) => c.field as string)
    // Only what the conditions read: the tags (unless no condition looks at them), the owners' addresses.
    const tags = fields.some((field) => field === 'tags' || field === 'changed' || field === 'changed:tags') ? await store.tickets.tagsOf(ids) : new Map<number, Tag[]>()
    const needsEmail = fields.includes('customer_email_domain')
    const owners = needsEmail ? new Map((await store.users.findMany([...new Set(page.map((c) => c.ticket.user_id))])).map((user) => [user.id, user])) : null
    const asksHours = conditionsAskBusinessHours(automation.conditions) || automation.time_condition.business
    // The page's calendars in a few reads (not three per ticket); `fire` reuses them.
    const calendars = asksHours ? await ticketCalendars(store, ids) : new Map<number, BusinessCalendar | null>()
    const out: AutomationCandidate[] = []
    for (const candidate of page) {
      const calendar = calendars.get(candidate.ticket.id) ?? null
      if (!automationFires(automation.time_condition, instantsOf(candidate), now, calendar, markOf(candidate))) continue
      const owner = owners?.get(candidate.ticket.user_id)
      const holds = conditionsHold(automation.conditions, {
        event: 'ticket.updated',
        channel: 'automation',
        ticket: ruleTicketOf(candidate.ticket, tags.get(candidate.ticket.id) ?? []),
        previous: null,
        customer_email: owner?.email === undefined || owner.email === '' ? null : owner.email.toLowerCase(),
        comment_text: null,
        within_business_hours: withinBusinessHours(calendar, now)
      })
      if (holds) out.push(candidate)
    }
    return { matches: out, calendars }
  }

  /** `calendar`: the ticket's SLA calendar as `matching` read it for its page (null when business hours do not matter here). */
  private async fire (automation: Automation, candidate: AutomationCandidate, now: Date, calendar: BusinessCalendar | null): Promise<boolean> {
    const instants = instantsOf(candidate)
    const mark = markOf(candidate)
    if (!automationFires(automation.time_condition, instants, now, calendar, mark)) return false
    const by = automationActor({ type: 'automation', id: automation.id, name: automation.name })
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const ticket = await tx.tickets.findById(candidate.ticket.id)
      // Merged since the page was read: rules leave a merged ticket alone (the due query leaves them out).
      if (ticket === null || ticket.merged_into_id != null) return false
      const tags = (await tx.tickets.tagsOf([ticket.id])).get(ticket.id) ?? []
      const owner = await tx.users.findById(ticket.user_id)
      const facts = {
        event: 'ticket.updated' as const,
        channel: 'automation' as const,
        ticket: ruleTicketOf(ticket, tags),
        previous: null,
        customer_email: owner?.email === undefined || owner.email === '' ? null : owner.email.toLowerCase(),
        comment_text: null,
        within_business_hours: withinBusinessHours(calendar, now)
      }
      if (!conditionsHold(automation.conditions, facts)) return false
      const applied = applyRuleActions(facts.ticket, automation.actions)
      let current = ticket
      if (applied.changes.length > 0) current = (await writeRuleChanges(this.ctx, tx, [{ by, changes: applied.changes }], ticket, tags)).ticket
      for (const effect of applied.effects) current = await runTriggerEffect(this.ctx, tx, by, current, effect, { owner }) ?? current
      const anchor = candidate.instants[automation.time_condition.anchor]
      if (anchor !== null) await tx.automations.mark(automation.id, ticket.id, anchor)
      return true
    })
  }
}

function notFound (): never {
  throw new NotFoundError('Automation')
}
