import type { ServiceContext } from '../context.js'
import type { Helpdesk } from '../helpdesk.js'
import { REPORTS_UPDATE_JOB, updateReports } from './report-updater.js'

export { recordTicketChannel } from './report-updater.js'

/** The recurring run catches up whatever a wake-up missed (another instance's changes, a crash). */
export const REPORTS_UPDATE_EVERY_MS = 30_000
/** After a change, the update runs this soon (changes meanwhile ride along): one enqueue per second at most. */
export const REPORTS_UPDATE_DELAY_MS = 1000

/**
 * The rollups follow the event log asynchronously, never in the request:
 * a change's transaction writes nothing for them (except a new ticket's
 * channel), and after it commits a `reports.update` job is asked for (one
 * per second at most, a unique key so one is pending at a time).
 */
export function registerReportJobs (helpdesk: Helpdesk, context: ServiceContext): void {
  const { jobs } = helpdesk
  // A first run over an existing database computes every ticket: a long lease (renewed while it runs anyway).
  jobs.register(REPORTS_UPDATE_JOB, async () => { await updateReports(context.store, context.clock) }, { concurrency: 1, leaseMs: 30 * 60 * 1000 })
  jobs.every(REPORTS_UPDATE_JOB, REPORTS_UPDATE_EVERY_MS)
  let timer: NodeJS.Timeout | null = null
  helpdesk.events.subscribe((event) => {
    if (timer !== null || !jobs.isRunning) return
    if (!event.type.startsWith('Tickets.') && !event.type.startsWith('Satisfaction.') && !event.type.startsWith('Import.')) return
    timer = setTimeout(() => {
      timer = null
      context.store.jobs.enqueue([{ type: REPORTS_UPDATE_JOB, uniqueKey: `${REPORTS_UPDATE_JOB}:soon` }]).catch((error: unknown) => { jobs.onError(error) })
    }, REPORTS_UPDATE_DELAY_MS)
    timer.unref()
  })
}
