import type { RuleConditions } from '../automation/rule-conditions.js'
import type { Store } from '../store.js'
import { isWithinBusinessHours } from './business-time.js'
import type { BusinessCalendar } from './calendar.js'
import type { SlaPolicy } from './sla-policy.js'

/**
 * The calendar whose business hours apply to a ticket: its SLA policy's
 * (`policyId`, the policy its SLA state names), else the default policy's;
 * null when there is neither or the calendar is gone, which counts every
 * moment (24/7). Pure.
 */
export function ticketCalendarOf (
  policies: readonly SlaPolicy[], policyId: number | null, calendarOf: (id: number) => BusinessCalendar | null | undefined
): BusinessCalendar | null {
  const policy = ticketPolicyOf(policies, policyId)
  return policy === null ? null : calendarOf(policy.calendar_id) ?? null
}

/** The ticket's policy (`policyId`) when it still exists, else the default policy, else null. Pure. */
export function ticketPolicyOf (policies: readonly SlaPolicy[], policyId: number | null): SlaPolicy | null {
  return (policyId === null ? undefined : policies.find((p) => p.id === policyId)) ?? policies.find((p) => p.is_default) ?? null
}

/** Whether `now` is within the business hours of `calendar` (always, without one: 24/7). Pure. */
export function withinBusinessHours (calendar: BusinessCalendar | null, now: Date): boolean {
  return calendar === null || isWithinBusinessHours(calendar, now)
}

/** Whether any of the conditions asks about business hours (only then is the ticket's calendar read). */
export function conditionsAskBusinessHours (conditions: RuleConditions): boolean {
  return conditions.all.some((c) => c.field === 'within_business_hours') || conditions.any.some((c) => c.field === 'within_business_hours')
}

/** The calendar that applies to the ticket, read in `tx`: its SLA state's policy, the policies, the calendar (three small reads). */
export async function ticketCalendar (tx: Store, ticketId: number): Promise<BusinessCalendar | null> {
  return (await ticketCalendars(tx, [ticketId])).get(ticketId) ?? null
}

/**
 * The calendars of many tickets in a fixed number of reads, whatever their
 * number: their SLA states (one read), the policies (one), each distinct
 * calendar (one per calendar in use, a handful). For a page of candidates.
 */
export async function ticketCalendars (tx: Store, ticketIds: readonly number[]): Promise<Map<number, BusinessCalendar | null>> {
  const out = new Map<number, BusinessCalendar | null>()
  if (ticketIds.length === 0) return out
  const [states, policies] = [await tx.sla.ticketStates(ticketIds), await tx.sla.allPolicies()]
  const calendars = new Map<number, BusinessCalendar | null>()
  for (const id of ticketIds) {
    const policy = ticketPolicyOf(policies, states.get(id)?.policy_id ?? null)
    if (policy === null) {
      out.set(id, null)
      continue
    }
    if (!calendars.has(policy.calendar_id)) calendars.set(policy.calendar_id, await tx.sla.findCalendar(policy.calendar_id))
    out.set(id, calendars.get(policy.calendar_id) ?? null)
  }
  return out
}

/** Whether `now` is within the business hours of the ticket's calendar (`ticketCalendar`). */
export async function ticketWithinBusinessHours (tx: Store, ticketId: number, now: Date): Promise<boolean> {
  return withinBusinessHours(await ticketCalendar(tx, ticketId), now)
}
