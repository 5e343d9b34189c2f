import { t } from '../../messages/index.js'

/** The inbox's views: every ticket, or the built-in "breaching soon" view. */
export function SLA_VIEWS (): Array<{ value: string, label: string }> {
  return [{ value: '', label: t('inbox.view.all') }, { value: 'breaching', label: t('inbox.view.breaching') }]
}

/** "Breaching soon": tickets whose next due time is within the hour, or past (sorted by it). */
export function breachingSoonFilter (now = new Date()): Record<string, string> {
  const soon = new Date(now.getTime() + 60 * 60 * 1000).toISOString().slice(0, 19).replace('T', ' ')
  return { 'sla_next_due_at[lt]': soon }
}
