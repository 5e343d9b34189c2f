import type { TokenRepository } from './auth/token-store.js'
import type { CategoryRepository } from './categories/category-store.js'
import type { CannedResponseRepository } from './canned-responses/canned-response-store.js'
import type { CustomFieldRepository } from './fields/custom-field-store.js'
import type { ArticleRepository, CollectionRepository } from './knowledge-base/knowledge-base-store.js'
import type { ImportRepository } from './imports/import-store.js'
import type { EventLogRepository } from './event-log/event-log-store.js'
import type { JobRepository } from './jobs/job-store.js'
import type { MailRepository } from './mail/mail-store.js'
import type { WebhookRepository } from './webhooks/webhook-store.js'
import type { NotificationRepository } from './notifications/notification-store.js'
import type { EventNotifier } from './stream/event-notifier.js'
import type { AttachmentRepository, CommentRepository, TicketRepository } from './tickets/ticket-store.js'
import type { TicketMergeRepository } from './tickets/ticket-merge.js'
import type { CustomerNoteRepository } from './users/customer-note-store.js'
import type { UserRepository } from './users/user-store.js'
import type { SettingsRepository } from './settings/settings.js'
import type { AccountTokenRepository } from './auth/account-token-store.js'
import type { TwoFactorRepository } from './auth/two-factor-store.js'
import type { SsoRepository } from './auth/sso/sso-store.js'
import type { SatisfactionRepository } from './satisfaction/satisfaction-store.js'
import type { TicketHistoryRepository } from './history/ticket-history-store.js'
import type { AuditLogRepository } from './audit/audit-log-store.js'
import type { SlaRepository } from './sla/sla-store.js'
import type { MacroRepository } from './macros/macro-store.js'
import type { ViewRepository } from './views/view-store.js'
import type { ReportRepository } from './reports/report-store.js'
import type { TriggerRepository } from './triggers/trigger-store.js'
import type { AutomationRepository } from './automations/automation-store.js'
import type { AssignmentRepository } from './assignment/assignment.js'
import type { PresenceRepository } from './presence/presence-store.js'
import type { DraftRepository } from './drafts/draft-store.js'

/**
 * The storage port. Every method is async and takes plain objects.
 * Conventions for every repository:
 * - `find*` returns null when nothing matches; it never throws NotFoundError.
 * - `update*`/`delete*` of a missing id return null/false.
 * - A unique violation surfaces as a ValidationError on the field (e.g. `email`).
 * - List methods return one page and the total; requested includes are loaded
 *   in batch (one query per include, whatever the page size) and attached to
 *   each item under the include's key (`tickets-count` -> `tickets_count`).
 */
export interface Store extends Readonly<Repositories> {
  /**
   * Runs `fn` in one transaction: everything it writes commits together or not
   * at all. Nested calls join the outer transaction.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  /** Announces committed event-log ids to every instance (the live event stream's signal). */
  readonly eventNotifier: EventNotifier
  /** Checks the database answers. */
  ping(): Promise<void>
  /**
   * Reorganises indexes after bulk writes (seeding, large imports): search
   * indexes compacted, the query planner's statistics refreshed. Safe at any
   * time; takes seconds on millions of rows.
   */
  optimize(): Promise<void>
  close(): Promise<void>
}

/**
 * Every repository of the store, by name: the one list of them (a store
 * implementation builds one of each).
 */
export interface Repositories {
  users: UserRepository
  tokens: TokenRepository
  categories: CategoryRepository
  customerNotes: CustomerNoteRepository
  customFields: CustomFieldRepository
  cannedResponses: CannedResponseRepository
  collections: CollectionRepository
  articles: ArticleRepository
  notifications: NotificationRepository
  imports: ImportRepository
  tickets: TicketRepository
  comments: CommentRepository
  attachments: AttachmentRepository
  /** Each person's unsent replies and notes, one per ticket, with the uploads they hold. */
  drafts: DraftRepository
  /** Every committed domain event, in order (the outbox of the channels). */
  eventLog: EventLogRepository
  /** Background jobs, enqueued in the transaction of the change that asks for them. */
  jobs: JobRepository
  /** Mail threads, sent and received mail, participants and opt-outs. */
  mail: MailRepository
  /** Webhook endpoints and their deliveries. */
  webhooks: WebhookRepository
  /** Administrator settings (key -> JSON). */
  settings: SettingsRepository
  /** Single-use account tokens: password resets, magic links, email verification, second-factor challenges. */
  accountTokens: AccountTokenRepository
  /** Two-factor authentication records and recovery codes. */
  twoFactor: TwoFactorRepository
  /** Single sign-on: providers, identities, sign-ins under way, sessions' re-checks. */
  sso: SsoRepository
  /** The closings (resolutions) of tickets and their satisfaction ratings. */
  satisfaction: SatisfactionRepository
  /** Macros: named sets of ticket actions, shared or personal. */
  macros: MacroRepository
  /** Views of the ticket list: built-in, shared, and each agent's private ones. */
  views: ViewRepository
  /** Triggers (ordered rules run on ticket changes) and what running them reads. */
  triggers: TriggerRepository
  /** Time-based automations and the marks of what they fired on. */
  automations: AutomationRepository
  /** Categories' assignment rules and agents' availability. */
  assignment: AssignmentRepository
  /** Every change of every ticket, appended in the change's transaction. */
  ticketHistory: TicketHistoryRepository
  /** Merges and splits of tickets: the moving, and the records that undo a merge. */
  ticketMerges: TicketMergeRepository
  /** Changes to the help desk itself (agents, categories, webhooks, tokens, sign-ins, settings...), secrets removed. */
  auditLog: AuditLogRepository
  /** SLA calendars and policies, and each ticket's SLA state and due times. */
  sla: SlaRepository
  /** Reports' rollups: per-ticket facts, hourly sums, the updater's cursor; the doors tickets came through. */
  reports: ReportRepository
  /** Who is viewing or typing on which ticket, kept alive by heartbeats (collision detection). */
  presence: PresenceRepository
}

/** A list item: the entity plus whatever includes were asked for. */
export type WithIncludes<T> = T & Record<string, unknown>
