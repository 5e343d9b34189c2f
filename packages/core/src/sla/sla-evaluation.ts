import type { Store } from '../store.js'
import { TicketStatus, type Ticket } from '../tickets/ticket.js'
import { formatDateTime, type DateTimeString } from '../time.js'
import { twentyFourSevenCalendar, type BusinessCalendar } from './calendar.js'
import { slaClock, slaDueTimes, type SlaClock, type SlaEvent, type SlaPolicyTerms, type SlaTimeline } from './sla-clock.js'
import { conditionsNeedEmail, matchesConditions, policyTargets, type SlaPolicy, type SlaTicketFacts } from './sla-policy.js'
import { SLA_TARGETS, type TicketSlaDue, type TicketSlaState } from './sla-store.js'

/** What the clocks of every ticket read: the policies in matching order, their calendars, the paused statuses. */
export interface SlaConfig {
  policies: SlaPolicy[]
  calendars: Map<number, BusinessCalendar>
  /** Pending, plus the statuses the administrator marks as paused (`sla.paused_statuses`). */
  paused_statuses: number[]
  /** Some policy's conditions read the owner's email. */
  needs_email: boolean
}

/** The key of a policy in a timeline. */
export const policyKey = (id: number | null): string => id === null ? 'none' : String(id)

/** Calendar of a policy whose calendar is gone, and of periods under a deleted policy: every minute counts. */
const FALLBACK_CALENDAR = twentyFourSevenCalendar()

/** The first policy whose conditions hold; the default policy (last) when none. */
export function matchPolicy (config: SlaConfig, ticket: SlaTicketFacts): SlaPolicy | null {
  for (const policy of config.policies) if (policy.is_default || matchesConditions(policy.conditions, ticket)) return policy
  return null
}

/** What the clocks read of a ticket. */
export type SlaTicket = Pick<Ticket, 'id' | 'created_at' | 'updated_at' | 'status' | 'category_id' | 'user_id' | 'additional'>

export function ticketFacts (ticket: SlaTicket, email: string | null | undefined): SlaTicketFacts {
  return { category_id: ticket.category_id, user_id: ticket.user_id, fields: ticket.additional.fields ?? {}, email }
}

/**
 * Reads the configuration, cached per process for `ttlMs` (a write through
 * this process clears it; other instances see a change within the TTL, and
 * the recalculation a change enqueues starts after it).
 */
export class SlaConfigCache {
  private cached: { config: SlaConfig, at: number } | null = null
  constructor (private readonly ttlMs = 5000) {}

  clear (): void { this.cached = null }

  async load (store: Store): Promise<SlaConfig> {
    const now = Date.now()
    if (this.cached !== null && now - this.cached.at < this.ttlMs) return this.cached.config
    // One after the other: `store` may be a transaction, whose one connection runs a query at a time.
    const policies = await store.sla.allPolicies()
    const calendars = await store.sla.allCalendars()
    const settings = await store.settings.all()
    const extra = settings.find((s) => s.key === 'sla.paused_statuses')?.value
    const paused = [TicketStatus.Pending as number, ...(Array.isArray(extra) ? extra.filter((v): v is number => Number.isSafeInteger(v)) : [])]
    const config: SlaConfig = {
      policies,
      calendars: new Map(calendars.map((c) => [c.id, c])),
      paused_statuses: [...new Set(paused)].filter((s) => s !== TicketStatus.Closed),
      needs_email: policies.some((p) => conditionsNeedEmail(p.conditions))
    }
    this.cached = { config, at: now }
    return config
  }
}

/** What happened to the ticket besides its current state (which is compared with the timeline's). */
export type SlaChange = { reply: 'staff' | 'customer' } | null

function lastStatus (timeline: SlaTimeline): number {
  let status = timeline.status
  for (const event of timeline.events) if (event.type === 'status') status = event.status
  return status
}

function lastPolicy (timeline: SlaTimeline): string {
  let policy = timeline.policy
  for (const event of timeline.events) if (event.type === 'policy') policy = event.policy
  return policy
}

function termsFor (config: SlaConfig, key: string): SlaPolicyTerms {
  const policy = key === 'none' ? undefined : config.policies.find((p) => String(p.id) === key)
  if (policy === undefined) return { calendar: FALLBACK_CALENDAR, targets: {} }
  return { calendar: config.calendars.get(policy.calendar_id) ?? FALLBACK_CALENDAR, targets: policyTargets(policy) }
}

export interface SlaEvaluation {
  state: TicketSlaState
  due: TicketSlaDue
  clock: SlaClock
  /** Something was added to the timeline (or the state is new). */
  changed: boolean
}

/**
 * Brings a ticket's SLA state up to date at `now`: appends the reply, the
 * status change and the change of policy (first match wins) to its timeline,
 * then reads the clocks (`slaClock`) and the due times. A ticket with no
 * state yet starts its timeline at its creation, Open.
 */
export function evaluateTicketSla (
  config: SlaConfig, previous: TicketSlaState | null, ticket: SlaTicket, email: string | null | undefined, change: SlaChange, now: Date
): SlaEvaluation {
  const at: DateTimeString = formatDateTime(now)
  const policy = matchPolicy(config, ticketFacts(ticket, email))
  const key = policyKey(policy?.id ?? null)
  let changed = previous === null
  const timeline: SlaTimeline = previous !== null
    ? { ...previous.timeline, events: [...previous.timeline.events] }
    : { created_at: ticket.created_at, status: TicketStatus.Open, policy: key, events: [] }
  const add = (event: SlaEvent): void => { timeline.events.push(event); changed = true }
  if (lastPolicy(timeline) !== key) add({ type: 'policy', at, policy: key })
  if (change !== null) add({ type: change.reply === 'staff' ? 'staff_reply' : 'customer_reply', at })
  if (lastStatus(timeline) !== ticket.status) add({ type: 'status', at, status: ticket.status })

  const policies: Record<string, SlaPolicyTerms> = { [timeline.policy]: termsFor(config, timeline.policy) }
  for (const event of timeline.events) if (event.type === 'policy') policies[event.policy] = termsFor(config, event.policy)
  const clock = slaClock({ timeline, policies, paused_statuses: config.paused_statuses, now })
  let announced = previous?.announced ?? {}
  const targets: TicketSlaState['targets'] = {}
  let next: DateTimeString | null = null
  for (const name of SLA_TARGETS) {
    const target = clock[name]
    if (target === null) { targets[name] = null; continue }
    targets[name] = {
      state: target.state,
      target_minutes: target.target_minutes,
      due_at: target.due_at,
      met_at: target.met_at,
      breached: target.breached,
      overdue_minutes: target.overdue_minutes,
      ...('cycles' in target ? { cycles: target.cycles as number, breached_cycles: target.breached_cycles as number } : {})
    }
    const due = target.due_at
    if (due === null) continue
    const told = announced[name]
    if (told !== undefined && told.due_at === due && told.breach) continue
    // A running target due before the ticket was imported is history: recorded, never announced (docs/sla.md, "Imported tickets").
    if (timeline.imported_at !== undefined && target.state === 'running' && due <= timeline.imported_at) {
      announced = { ...announced, [name]: { due_at: due, warning: true, breach: true, imported: true } }
      continue
    }
    if (next === null || due < next) next = due
  }
  const state: TicketSlaState = {
    ticket_id: ticket.id,
    policy_id: policy?.id ?? null,
    timeline,
    targets,
    paused_minutes: clock.paused_minutes,
    announced,
    evaluated_at: at
  }
  return { state, due: { ...slaDueTimes(clock), sla_next_due_at: next }, clock, changed }
}

/** The earliest due time among running targets whose breach is still to be announced. */
export function nextDueOf (state: TicketSlaState): DateTimeString | null {
  let next: DateTimeString | null = null
  for (const name of SLA_TARGETS) {
    const due = state.targets[name]?.due_at ?? null
    if (due === null) continue
    const told = state.announced[name]
    if (told !== undefined && told.due_at === due && told.breach) continue
    if (next === null || due < next) next = due
  }
  return next
}
