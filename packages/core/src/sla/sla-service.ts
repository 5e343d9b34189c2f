import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError, ForbiddenError } from '../errors.js'
import { unknownOrderErrors, throwIfInvalid } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { TicketService } from '../tickets/ticket-service.js'
import { TicketStatus } from '../tickets/ticket.js'
import { ticketEventFacts } from '../tickets/ticket-events.js'
import { formatDateTime, parseDateTime } from '../time.js'
import { SYSTEM, type ActorInput } from '../users/actor.js'
import { runTriggersOnChange } from '../triggers/trigger-runner.js'
import { ensureAdmin, ensureStaff } from '../users/user-policy.js'
import { warningInstant } from './business-time.js'
import { holidaysFromIcal } from './ical-holidays.js'
import { evaluateTicketSla, nextDueOf, SlaConfigCache, type SlaConfig } from './sla-evaluation.js'
import { SlaEventType, type SlaBreachedEvent, type SlaWarningEvent } from './sla-events.js'
import { checkCalendarInput, checkPolicyInput, SLA_LIMITS, type SlaCalendar, type SlaCalendarInput, type SlaPolicy, type SlaPolicyInput } from './sla-policy.js'
import { createSlaRecorder } from './sla-recorder.js'
import { SLA_CONFIG_TTL_MS, slaRecalculationJob, SlaJobType } from './sla-recalculation.js'
import { SLA_TARGETS, type SlaTargetName, type TicketSlaDue, type TicketSlaState } from './sla-store.js'

/** The job types of SLAs. */
export { SlaJobType }

export const SLA_ESCALATE_EVERY_MS = 60_000
/** Tickets looked at per escalation run (the rest wait for the next run, earliest due first). */
export const SLA_ESCALATION_BATCH = 500
export const SLA_RECALCULATION_BATCH = 200
export { SLA_CONFIG_TTL_MS }

/** A ticket's SLA as staff read it. */
export interface TicketSlaView extends TicketSlaDue {
  ticket_id: number
  policy_id: number | null
  paused_minutes: number
  targets: TicketSlaState['targets']
  evaluated_at: string | null
}

/**
 * SLA calendars and policies (administrators), the clocks of tickets (staff),
 * the escalation and recalculation jobs (docs/sla.md).
 */
export class SlaService {
  readonly cache = new SlaConfigCache(SLA_CONFIG_TTL_MS)
  /** The recorder that keeps tickets' due times in the transactions of their changes. */
  readonly recorder

  constructor (private readonly ctx: ServiceContext, private readonly tickets: TicketService) {
    this.recorder = createSlaRecorder(this.cache, ctx.clock)
  }

  // Calendars

  async listCalendars (caller: ActorInput, query: ListQuery): Promise<Page<WithIncludes<SlaCalendar>>> {
    ensureAdmin(caller)
    return await this.ctx.store.sla.listCalendars(query)
  }

  async viewCalendar (caller: ActorInput, id: number): Promise<SlaCalendar> {
    ensureAdmin(caller)
    return await this.calendar(id)
  }

  async createCalendar (caller: ActorInput, input: SlaCalendarInput): Promise<SlaCalendar> {
    ensureAdmin(caller)
    const { name, calendar } = checkCalendarInput(input, null)
    return await this.ctx.store.transaction(async (tx) => {
      const created = await tx.sla.createCalendar({ name, ...calendar })
      await audit(tx, caller, { action: 'sla_calendar.created', subject_type: 'sla_calendar', subject_id: created.id, after: created })
      return created
    })
  }

  async updateCalendar (caller: ActorInput, id: number, input: SlaCalendarInput): Promise<SlaCalendar> {
    ensureAdmin(caller)
    const current = await this.calendar(id)
    if (current.built_in) throw new ForbiddenError('The built-in 24/7 calendar cannot be changed.')
    const { name, calendar } = checkCalendarInput(input, current)
    return await this.changed(async (tx) => {
      const updated = await tx.sla.updateCalendar(id, { name, ...calendar }) ?? notFound('Calendar')
      await audit(tx, caller, { action: 'sla_calendar.updated', subject_type: 'sla_calendar', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async deleteCalendar (caller: ActorInput, id: number): Promise<void> {
    ensureAdmin(caller)
    const current = await this.calendar(id)
    if (current.built_in) throw new ForbiddenError('The built-in 24/7 calendar cannot be deleted.')
    await this.ctx.store.transaction(async (tx) => {
      if (await tx.sla.policiesUsing(id) > 0) throw ValidationError.field('calendar', 'Policies use this calendar: give them another one first.')
      await tx.sla.deleteCalendar(id)
      await audit(tx, caller, { action: 'sla_calendar.deleted', subject_type: 'sla_calendar', subject_id: id, before: current })
    })
    this.cache.clear()
  }

  /**
   * Adds the holidays of an iCal file (years `from_year` to `to_year`) to the
   * calendar; dates it has already keep their names. `replace` drops the
   * calendar's holidays first.
   */
  async importHolidays (caller: ActorInput, id: number, input: { ical: string, from_year?: number, to_year?: number, replace?: boolean }): Promise<SlaCalendar> {
    ensureAdmin(caller)
    const current = await this.calendar(id)
    if (current.built_in) throw new ForbiddenError('The built-in 24/7 calendar cannot be changed.')
    const year = this.ctx.clock.now().getUTCFullYear()
    const fromYear = input.from_year ?? year
    const toYear = input.to_year ?? fromYear + 1
    if (!Number.isInteger(fromYear) || !Number.isInteger(toYear) || toYear < fromYear || toYear - fromYear > 49) {
      throw ValidationError.field('to_year', 'The years must run from from_year to to_year, at most 50 of them.')
    }
    const imported = await holidaysFromIcal(input.ical, { from_year: fromYear, to_year: toYear })
    const kept = input.replace === true ? [] : current.holidays
    const dates = new Set(kept.map((h) => h.date))
    const holidays = [...kept, ...imported.filter((h) => !dates.has(h.date))]
    const { name, calendar } = checkCalendarInput({ holidays }, current)
    return await this.changed(async (tx) => {
      const updated = await tx.sla.updateCalendar(id, { name, ...calendar }) ?? notFound('Calendar')
      await audit(tx, caller, { action: 'sla_calendar.holidays_imported', subject_type: 'sla_calendar', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  // Policies

  async listPolicies (caller: ActorInput, query: ListQuery): Promise<Page<WithIncludes<SlaPolicy>>> {
    ensureAdmin(caller)
    return await this.ctx.store.sla.listPolicies(query)
  }

  async viewPolicy (caller: ActorInput, id: number): Promise<SlaPolicy> {
    ensureAdmin(caller)
    return await this.policy(id)
  }

  async createPolicy (caller: ActorInput, input: SlaPolicyInput): Promise<SlaPolicy> {
    ensureAdmin(caller)
    const values = checkPolicyInput(input, true)
    return await this.changed(async (tx) => {
      await this.ensureCalendar(tx, values.calendar_id!)
      if ((await tx.sla.allPolicies()).length >= SLA_LIMITS.policies) throw ValidationError.field('name', `At most ${SLA_LIMITS.policies} policies.`)
      const created = await tx.sla.createPolicy(values as Required<typeof values>)
      await audit(tx, caller, { action: 'sla_policy.created', subject_type: 'sla_policy', subject_id: created.id, after: created })
      return created
    })
  }

  async updatePolicy (caller: ActorInput, id: number, input: SlaPolicyInput): Promise<SlaPolicy> {
    ensureAdmin(caller)
    const current = await this.policy(id)
    const values = checkPolicyInput(input, false, current.is_default)
    return await this.changed(async (tx) => {
      if (values.calendar_id !== undefined) await this.ensureCalendar(tx, values.calendar_id)
      const updated = await tx.sla.updatePolicy(id, values) ?? notFound('Policy')
      await audit(tx, caller, { action: 'sla_policy.updated', subject_type: 'sla_policy', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async deletePolicy (caller: ActorInput, id: number): Promise<void> {
    ensureAdmin(caller)
    const current = await this.policy(id)
    if (current.is_default) throw new ForbiddenError('The default policy cannot be deleted.')
    await this.changed(async (tx) => {
      await tx.sla.deletePolicy(id)
      await audit(tx, caller, { action: 'sla_policy.deleted', subject_type: 'sla_policy', subject_id: id, before: current })
    })
  }

  /** `ids`: every policy but the default one, in the new matching order. */
  async reorderPolicies (caller: ActorInput, ids: number[]): Promise<SlaPolicy[]> {
    ensureAdmin(caller)
    return await this.changed(async (tx) => {
      const movable = (await tx.sla.allPolicies()).filter((p) => !p.is_default)
      const errors = unknownOrderErrors(ids, movable.map((p) => p.id), 'The order names a policy that does not exist (or the default policy, which is always last).')
      if (new Set(ids).size !== ids.length || ids.length !== movable.length) errors.order = ['The order must name every policy but the default one, each once.']
      throwIfInvalid(errors)
      await tx.sla.reorderPolicies(ids)
      const after = await tx.sla.allPolicies()
      await audit(tx, caller, { action: 'sla_policy.reordered', subject_type: 'sla_policy', subject_id: null, before: movable.map((p) => p.id), after: ids })
      return after
    })
  }

  // Tickets

  /** A ticket's clocks as last evaluated (staff who may see the ticket). */
  async forTicket (caller: ActorInput, ticketId: number): Promise<TicketSlaView> {
    ensureStaff(caller)
    const ticket = await this.tickets.findById(caller, ticketId)
    const state = (await this.ctx.store.sla.ticketStates([ticketId])).get(ticketId) ?? null
    return {
      ticket_id: ticketId,
      policy_id: state?.policy_id ?? null,
      paused_minutes: state?.paused_minutes ?? 0,
      targets: state?.targets ?? {},
      evaluated_at: state?.evaluated_at ?? null,
      first_response_due_at: ticket.first_response_due_at ?? null,
      next_response_due_at: ticket.next_response_due_at ?? null,
      resolution_due_at: ticket.resolution_due_at ?? null,
      sla_next_due_at: ticket.sla_next_due_at ?? null
    }
  }

  /**
   * Recalculates the open tickets above `afterId`, one batch; returns the last
   * id done, or null when there are no more. Each ticket in its own
   * transaction: a change of it meanwhile is not lost.
   */
  async recalculateBatch (afterId: number, limit = SLA_RECALCULATION_BATCH): Promise<number | null> {
    const { store } = this.ctx
    this.cache.clear()
    const config = await this.cache.load(store)
    const ids = await store.sla.openTicketIds(afterId, limit, [TicketStatus.Closed])
    for (const id of ids) {
      await store.transaction(async (tx) => {
        const ticket = await tx.tickets.findById(id)
        if (ticket === null) return
        const previous = (await tx.sla.ticketStates([id])).get(id) ?? null
        const email = config.needs_email ? (await tx.users.findById(ticket.user_id))?.email ?? null : undefined
        const result = evaluateTicketSla(config, previous, ticket, email, null, this.ctx.clock.now())
        await tx.sla.saveTicketState(result.state, result.due)
      })
    }
    return ids.length < limit ? null : ids[ids.length - 1] ?? null
  }

  /**
   * One run of the escalation: the tickets whose next due time falls within
   * the longest warning window, earliest first, through the index on
   * `sla_next_due_at`. Each warning and breach is announced once per ticket,
   * target and due time (claimed in storage, so two instances never both
   * announce it). Returns how many events were emitted.
   */
  async escalate (): Promise<number> {
    const { store, events, clock } = this.ctx
    const config = await this.cache.load(store)
    const now = clock.now()
    const window = Math.max(0, ...config.policies.map((p) => p.warning_minutes ?? 0))
    const due = await store.sla.dueBefore(formatDateTime(new Date(now.getTime() + window * 60_000)), SLA_ESCALATION_BATCH)
    let emitted = 0
    for (const candidate of due) {
      emitted += await events.transaction(store, async (tx) => {
        const state = (await tx.sla.ticketStates([candidate.ticket_id])).get(candidate.ticket_id)
        if (state === undefined) return 0
        const announcements = this.announcementsDue(config, state, now)
        if (announcements.length === 0) return 0
        const ticket = await tx.tickets.findById(candidate.ticket_id)
        if (ticket === null) return 0
        const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
        let count = 0
        const raised: Array<'sla.warning' | 'sla.breached'> = []
        for (const { target, kind, due_at: dueAt } of announcements) {
          const told = state.announced[target]
          const entry = told?.due_at === dueAt ? { ...told } : { due_at: dueAt, warning: false, breach: false }
          entry[kind] = true
          if (kind === 'breach') entry.warning = true
          state.announced[target] = entry
          if (!(await tx.sla.claimAnnouncement({ ticket_id: ticket.id, target, kind, due_at: dueAt }))) continue
          const sla = { target, due_at: dueAt, policy_id: state.policy_id }
          const facts = ticketEventFacts(null, ticket, category)
          await events.emit(tx, kind === 'breach'
            ? { type: SlaEventType.SlaBreached, ...facts, sla } satisfies SlaBreachedEvent
            : { type: SlaEventType.SlaWarning, ...facts, sla } satisfies SlaWarningEvent)
          raised.push(kind === 'breach' ? 'sla.breached' : 'sla.warning')
          count++
        }
        await tx.sla.saveTicketState(state, {
          first_response_due_at: ticket.first_response_due_at ?? null,
          next_response_due_at: ticket.next_response_due_at ?? null,
          resolution_due_at: ticket.resolution_due_at ?? null,
          sla_next_due_at: nextDueOf(state)
        })
        // Triggers on `sla.warning` / `sla.breached`, after the state is saved (a trigger's change re-evaluates it):
        // one pass per announcement, each claimed once above, so a trigger fires once per ticket, target and due time.
        let current = ticket
        for (const event of raised) {
          current = (await runTriggersOnChange(this.ctx, tx, SYSTEM, { event, ticket: current }))?.after ?? current
        }
        return count
      })
    }
    return emitted
  }

  /** The warnings and breaches of a ticket's running targets that are due at `now` and not yet announced. */
  private announcementsDue (config: SlaConfig, state: TicketSlaState, now: Date): Array<{ target: SlaTargetName, kind: 'warning' | 'breach', due_at: string }> {
    const policy = config.policies.find((p) => p.id === state.policy_id) ?? null
    const calendar = policy === null ? undefined : config.calendars.get(policy.calendar_id)
    const out: Array<{ target: SlaTargetName, kind: 'warning' | 'breach', due_at: string }> = []
    for (const target of SLA_TARGETS) {
      const record = state.targets[target]
      if (record === null || record === undefined || record.state !== 'running' || record.due_at === null) continue
      const dueAt = record.due_at
      const told = state.announced[target]?.due_at === dueAt ? state.announced[target] : undefined
      const dueMs = parseDateTime(dueAt)
      if (now.getTime() >= dueMs) {
        if (told?.breach !== true) out.push({ target, kind: 'breach', due_at: dueAt })
        continue
      }
      if (told?.warning === true || policy === null || policy.warning_minutes === null || calendar === undefined) continue
      const warnAt = warningInstant(calendar, new Date(dueMs), policy.warning_minutes, policy.warnings_follow_calendar)
      if (now.getTime() >= warnAt.getTime()) out.push({ target, kind: 'warning', due_at: dueAt })
    }
    return out
  }

  private async changed<T>(fn: (tx: Parameters<Parameters<ServiceContext['store']['transaction']>[0]>[0]) => Promise<T>): Promise<T> {
    const result = await this.ctx.store.transaction(async (tx) => {
      const out = await fn(tx)
      // After the caches of every instance expired: they all read the change by then.
      await tx.jobs.enqueue([slaRecalculationJob(this.ctx.clock)])
      return out
    })
    this.cache.clear()
    return result
  }

  private async ensureCalendar (tx: ServiceContext['store'], id: number): Promise<void> {
    if (await tx.sla.findCalendar(id) === null) throw ValidationError.field('calendar_id', 'The selected calendar is invalid.')
  }

  private async calendar (id: number): Promise<SlaCalendar> {
    return await this.ctx.store.sla.findCalendar(id) ?? notFound('Calendar')
  }

  private async policy (id: number): Promise<SlaPolicy> {
    return await this.ctx.store.sla.findPolicy(id) ?? notFound('Policy')
  }
}

function notFound (what: string): never {
  throw new NotFoundError(what)
}
