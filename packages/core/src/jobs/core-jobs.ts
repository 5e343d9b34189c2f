import { registerReportJobs } from '../reports/report-jobs.js'
import { registerSlaJobs } from '../sla/sla-jobs.js'
import { AUTOMATION_INTERVAL_MS } from '../automations/automation.js'
import { ACCOUNT_MAIL_JOB, ACCOUNT_TOKENS_PRUNE_JOB } from '../auth/account-service.js'
import type { ServiceContext } from '../context.js'
import type { Helpdesk } from '../helpdesk.js'
import { IMPORT_STALE_AFTER_MS } from '../imports/import-service.js'
import { MAIL_SEND_JOB } from '../mail/mail-recorder.js'
import { formatDateTime } from '../time.js'
import { WEBHOOK_DELIVERY_RETENTION_DAYS } from '../webhooks/webhook-service.js'

/** The job types core runs itself. */
export const CoreJobType = {
  /** Runs queued imports (and resumes abandoned ones); enqueued with each upload. */
  ImportRun: 'import.run',
  /** Hourly: removes uploads never linked to a ticket or comment within 24 hours (CONTRACT §12). */
  UploadsPrune: 'uploads.prune',
  /** Daily: drops event-log entries and finished jobs past their retention. */
  EventsPrune: 'events.prune',
  /** Daily: drops webhook deliveries past their retention. */
  WebhooksPrune: 'webhooks.prune',
  /** Hourly: removes expired sessions and idle personal tokens (they are refused already). */
  TokensPrune: 'tokens.prune',
  /** Daily: drops audit-log entries older than the `audit.retention_days` setting. */
  AuditPrune: 'audit.prune',
  AutomationsRun: 'automations.run',
  /** Every 10 minutes: deletes presence rows past their expiry (they are ignored already; docs/event-stream.md). */
  PresencePrune: 'presence.prune'
} as const

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
/** How long the event log keeps events (the event stream replays from it; webhooks redeliver from it). */
export const EVENT_LOG_RETENTION_DAYS = 30
/** How long done and failed jobs stay listed. */
export const FINISHED_JOB_RETENTION_DAYS = 7

/**
 * Registers every job handler of core on `helpdesk.jobs` (they run once somebody starts the runner): outbound mail
 * (when mail is sent: `sendsMail`), account mail, imports and the prunings. `createHelpdesk` calls it, once; `context`
 * is the one it was built from. The channels' handlers (webhook delivery, `@helpdesk/webhooks`) are registered where
 * the workers start: the plugin's `workers` option (docs/embedding.md).
 */
export function registerCoreJobs (helpdesk: Helpdesk, context: ServiceContext, options: { sendsMail: boolean }): void {
  const { jobs } = helpdesk
  const daysAgo = (days: number): string => formatDateTime(new Date(context.clock.now().getTime() - days * DAY))

  const outbound = helpdesk.mail.outbound
  if (options.sendsMail && outbound !== null) {
    jobs.register(MAIL_SEND_JOB, async (job) => { await outbound.send(Number(job.payload.mail_message_id)) }, { concurrency: 4 })
  }
  jobs.register(ACCOUNT_MAIL_JOB, async (job) => { await helpdesk.account.sendMail(job.payload as never) }, { concurrency: 2 })
  jobs.register(ACCOUNT_TOKENS_PRUNE_JOB, async () => { await helpdesk.account.pruneExpired() })
  jobs.every(ACCOUNT_TOKENS_PRUNE_JOB, HOUR)

  // The runner's lease beats while an import runs; a dead worker's import resumes once it expires.
  jobs.register(CoreJobType.ImportRun, async () => { await helpdesk.imports.runPending() }, { leaseMs: IMPORT_STALE_AFTER_MS, concurrency: 1 })

  jobs.register(CoreJobType.UploadsPrune, async () => { await helpdesk.attachments.pruneUnlinked() })
  jobs.every(CoreJobType.UploadsPrune, HOUR)

  jobs.register(CoreJobType.EventsPrune, async () => {
    while (await context.store.eventLog.deleteBefore(daysAgo(EVENT_LOG_RETENTION_DAYS), 1000) === 1000);
    while (await context.store.jobs.deleteFinishedBefore(daysAgo(FINISHED_JOB_RETENTION_DAYS), 1000) === 1000);
  })
  jobs.every(CoreJobType.EventsPrune, DAY)

  jobs.register(CoreJobType.WebhooksPrune, async () => {
    while (await context.store.webhooks.deleteDeliveriesBefore(daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS), 1000) === 1000);
  })
  jobs.every(CoreJobType.WebhooksPrune, DAY)

  jobs.register(CoreJobType.TokensPrune, async () => { await helpdesk.auth.pruneExpired() })
  jobs.every(CoreJobType.TokensPrune, HOUR)

  registerSlaJobs(jobs, helpdesk.sla, context)
  registerReportJobs(helpdesk, context)

  jobs.register(CoreJobType.AuditPrune, async () => { await helpdesk.auditLog.prune() })
  jobs.every(CoreJobType.AuditPrune, DAY)

  jobs.register(CoreJobType.PresencePrune, async () => { await helpdesk.presence.pruneExpired() })
  jobs.every(CoreJobType.PresencePrune, 10 * 60 * 1000)

  // Time-based automations: one run covers every automation; the interval bounds how late one fires.
  jobs.register(CoreJobType.AutomationsRun, async () => { await helpdesk.automations.run() }, { concurrency: 1 })
  jobs.every(CoreJobType.AutomationsRun, AUTOMATION_INTERVAL_MS)
}
