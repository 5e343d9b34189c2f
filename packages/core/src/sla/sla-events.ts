import type { TicketEventBase } from '../tickets/ticket-events.js'
import type { DateTimeString } from '../time.js'
import type { SlaTargetName } from './sla-store.js'

/** Raised by the escalation job (docs/sla.md), once per ticket, target and due time. */
export const SlaEventType = {
  /** A target falls due soon (the policy's `warning_minutes` before, moved into business hours when it says so). */
  SlaWarning: 'Tickets.SlaWarning',
  /** A target's due time has passed without it being met. */
  SlaBreached: 'Tickets.SlaBreached'
} as const

export interface SlaEventFacts {
  target: SlaTargetName
  due_at: DateTimeString
  policy_id: number | null
}

export interface SlaWarningEvent extends TicketEventBase { type: typeof SlaEventType.SlaWarning, sla: SlaEventFacts }
export interface SlaBreachedEvent extends TicketEventBase { type: typeof SlaEventType.SlaBreached, sla: SlaEventFacts }

/** Whether an event type is an SLA warning or breach (streamed to staff only). */
export function isSlaEvent (type: string): boolean {
  return type === SlaEventType.SlaWarning || type === SlaEventType.SlaBreached
}
