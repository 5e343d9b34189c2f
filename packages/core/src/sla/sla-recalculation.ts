import type { NewJob } from '../jobs/job.js'
import { formatDateTime, type Clock } from '../time.js'

/** The job types of SLAs. */
export const SlaJobType = {
  /** Every minute: warnings and breaches of tickets due soon. */
  Escalate: 'sla.escalate',
  /** After a change of a policy, a calendar or the paused statuses: every open ticket recalculated, in batches. */
  Recalculate: 'sla.recalculate'
} as const

/** The configuration is cached this long per process; a recalculation starts after it, so every instance reads the change. */
export const SLA_CONFIG_TTL_MS = 5000

/** The recalculation a change asks for, enqueued in its transaction: due once every instance's cache expired. */
export function slaRecalculationJob (clock: Clock): NewJob {
  return { type: SlaJobType.Recalculate, payload: { after_id: 0 }, runAt: formatDateTime(new Date(clock.now().getTime() + SLA_CONFIG_TTL_MS + 1000)) }
}
