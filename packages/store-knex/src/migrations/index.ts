import type { Knex } from 'knex'
import * as foundation from './0001-foundation.js'
import * as tickets from './0002-tickets.js'
import * as knowledgeBase from './0003-knowledge-base.js'
import * as notifications from './0004-notifications.js'
import * as authRevision from './0005-auth-revision.js'
import * as ticketListIndexes from './0006-ticket-list-indexes.js'
import * as ticketCounts from './0007-ticket-counts.js'
import * as searchAtScale from './0008-search-at-scale.js'
import * as searchVisibility from './0009-search-visibility.js'
import * as uploadQuota from './0010-upload-quota.js'
import * as eventsAndJobs from './0011-events-and-jobs.js'
import * as webhooks from './0012-webhooks.js'
import * as mail from './0014-mail.js'
import * as notificationEventIds from './0015-notification-event-ids.js'
import * as sqliteValueSamples from './0016-sqlite-value-samples.js'
import * as postgresEventAnnounce from './0017-postgres-event-announce.js'
import * as postgresReadMarkKeys from './0018-postgres-read-mark-keys.js'
import * as mailReplyKeys from './0019-mail-reply-keys.js'
import * as sessions from './0020-sessions.js'
import * as signIn from './0025-sign-in.js'
import * as singleSignOn from './0026-single-sign-on.js'
import * as assignmentAndCommentSearch from './0027-assignment-and-comment-search.js'
import * as ticketHistory from './0028-ticket-history.js'
import * as auditLog from './0029-audit-log.js'
import * as satisfaction from './0030-satisfaction.js'
import * as slaPolicies from './0033-sla-policies.js'
import * as ticketSla from './0034-ticket-sla.js'
import * as ticketPrioritiesAndTags from './0035-ticket-priorities-and-tags.js'
import * as macros from './0036-macros.js'
import * as reports from './0031-reports.js'
import * as triggers from './0037-triggers.js'
import * as automationsAndAssignment from './0038-automations-and-assignment.js'
import * as ticketViews from './0039-ticket-views.js'
import * as presence from './0040-presence.js'
import * as drafts from './0041-drafts.js'
import * as ticketMerges from './0042-ticket-merges.js'
import * as triggerListVersion from './0043-trigger-list-version.js'
import * as reportHistogramsAndSla from './0044-report-histograms-and-sla.js'
import * as reportPriority from './0047-report-priority.js'
import * as presencePerTab from './0048-presence-per-tab.js'

interface Migration { name: string, up: (knex: Knex) => Promise<void>, down: (knex: Knex) => Promise<void> }

/**
 * Every migration, in order. An explicit list (not a directory scan) so the
 * store works from a bundle or a published package. Append only.
 */
export const migrations: Migration[] = [
  { name: '0001-foundation', ...foundation },
  { name: '0002-tickets', ...tickets },
  { name: '0003-knowledge-base', ...knowledgeBase },
  { name: '0004-notifications', ...notifications },
  { name: '0005-auth-revision', ...authRevision },
  { name: '0006-ticket-list-indexes', ...ticketListIndexes },
  { name: '0007-ticket-counts', ...ticketCounts },
  { name: '0008-search-at-scale', ...searchAtScale },
  { name: '0009-search-visibility', ...searchVisibility },
  { name: '0010-upload-quota', ...uploadQuota },
  { name: '0011-events-and-jobs', ...eventsAndJobs },
  { name: '0012-webhooks', ...webhooks },
  { name: '0014-mail', ...mail },
  { name: '0015-notification-event-ids', ...notificationEventIds },
  { name: '0016-sqlite-value-samples', ...sqliteValueSamples },
  { name: '0017-postgres-event-announce', ...postgresEventAnnounce },
  { name: '0018-postgres-read-mark-keys', ...postgresReadMarkKeys },
  { name: '0019-mail-reply-keys', ...mailReplyKeys },
  { name: '0020-sessions', ...sessions },
  { name: '0025-sign-in', ...signIn },
  { name: '0026-single-sign-on', ...singleSignOn },
  { name: '0027-assignment-and-comment-search', ...assignmentAndCommentSearch },
  { name: '0028-ticket-history', ...ticketHistory },
  { name: '0029-audit-log', ...auditLog },
  { name: '0030-satisfaction', ...satisfaction },
  { name: '0031-reports', ...reports },
  { name: '0033-sla-policies', ...slaPolicies },
  { name: '0034-ticket-sla', ...ticketSla },
  { name: '0035-ticket-priorities-and-tags', ...ticketPrioritiesAndTags },
  { name: '0036-macros', ...macros },
  { name: '0037-triggers', ...triggers },
  { name: '0038-automations-and-assignment', ...automationsAndAssignment },
  { name: '0039-ticket-views', ...ticketViews },
  { name: '0040-presence', ...presence },
  { name: '0041-drafts', ...drafts },
  { name: '0042-ticket-merges', ...ticketMerges },
  { name: '0043-trigger-list-version', ...triggerListVersion },
  { name: '0044-report-histograms-and-sla', ...reportHistogramsAndSla },
  { name: '0047-report-priority', ...reportPriority },
  { name: '0048-presence-per-tab', ...presencePerTab }
]

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m
}
