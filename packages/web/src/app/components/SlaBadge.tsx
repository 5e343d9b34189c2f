import { parseApiDate, formatDateTime } from '../dates.js'
import { t } from '../../messages/index.js'
import type { MessageKey } from '../../messages/index.js'
import type { Ticket } from '../types.js'

/** Within this many minutes of a due time a badge turns amber. */
const SOON_MINUTES = 60

const TARGETS = [
  ['first_response', 'first_response_due_at'],
  ['next_response', 'next_response_due_at'],
  ['resolution', 'resolution_due_at']
] as const

function span (minutes: number): string {
  if (minutes < 90) return t('sla.minutes', { count: Math.max(1, Math.round(minutes)) })
  if (minutes < 48 * 60) return t('sla.hours', { count: Math.round(minutes / 60) })
  return t('sla.days', { count: Math.round(minutes / 1440) })
}

/** The target that falls due first, and when (null: none runs). */
export function nearestDue (ticket: Ticket): { target: typeof TARGETS[number][0], due: Date, at: string } | null {
  let found: { target: typeof TARGETS[number][0], due: Date, at: string } | null = null
  for (const [target, key] of TARGETS) {
    const at = ticket[key]
    const due = parseApiDate(at)
    if (due !== null && at != null && (found === null || due.getTime() < found.due.getTime())) found = { target, due, at }
  }
  return found
}

/**
 * The ticket's nearest SLA due time as a coloured badge (staff): red once
 * overdue, amber within the hour, neutral otherwise; nothing when no target runs.
 */
export function SlaBadge ({ ticket, now = new Date() }: { ticket: Ticket, now?: Date }) {
  const nearest = nearestDue(ticket)
  if (nearest === null) return null
  const minutes = (nearest.due.getTime() - now.getTime()) / 60_000
  const state = minutes <= 0 ? 'breached' : minutes <= SOON_MINUTES ? 'soon' : 'ok'
  const target = t(`sla.target.${nearest.target}` as MessageKey)
  const text = minutes <= 0 ? t('sla.badge.overdue', { target, time: span(-minutes) }) : t('sla.badge.due', { target, time: span(minutes) })
  return <span class={`badge badge-sla badge-sla-${state}`} title={formatDateTime(nearest.at)} data-sla={state}>{text}</span>
}
