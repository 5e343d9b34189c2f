import type { ServiceContext } from '../context.js'
import type { JobRunner } from '../jobs/job-runner.js'
import type { TicketService } from '../tickets/ticket-service.js'
import { recordSlaNotifications } from './sla-recorder.js'
import { SLA_ESCALATE_EVERY_MS, SlaJobType, SlaService } from './sla-service.js'

/**
 * Builds the SLA service and hooks it into the ticket write path: its
 * recorder keeps every ticket's due times in the transaction of each change,
 * and warnings and breaches notify the assignee (else the category's agents).
 */
export function registerSla (context: ServiceContext, tickets: TicketService): SlaService {
  const sla = new SlaService(context, tickets)
  context.events.record(sla.recorder)
  context.events.record(recordSlaNotifications)
  return sla
}

/** The escalation scan (every minute) and the batched recalculation; registered by the composition root with core's other jobs. */
export function registerSlaJobs (jobs: JobRunner, sla: SlaService, context: ServiceContext): void {
  jobs.register(SlaJobType.Escalate, async () => { await sla.escalate() }, { concurrency: 1 })
  jobs.every(SlaJobType.Escalate, SLA_ESCALATE_EVERY_MS)
  jobs.register(SlaJobType.Recalculate, async (job) => {
    const next = await sla.recalculateBatch(Number(job.payload.after_id ?? 0))
    if (next !== null) await context.store.jobs.enqueue([{ type: SlaJobType.Recalculate, payload: { after_id: next } }])
  }, { concurrency: 1 })
}
