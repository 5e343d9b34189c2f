import { AuthService } from './auth/auth-service.js'
import type { TokenCacheOptions } from './auth/token-cache.js'
import type { SessionOptions } from './auth/session.js'
import { createArgon2Hasher } from './auth/argon2-hasher.js'
import { CannedResponseService } from './canned-responses/canned-response-service.js'
import { DraftService } from './drafts/draft-service.js'
import { CategoryService } from './categories/category-service.js'
import type { ServiceContext } from './context.js'
import { EventBus } from './events.js'
import { CustomFieldService } from './fields/custom-field-service.js'
import { ArticleService } from './knowledge-base/article-service.js'
import { CollectionService } from './knowledge-base/collection-service.js'
import { createLocalFileStorage } from './files/local-file-storage.js'
import { AttachmentService } from './tickets/attachment-service.js'
import { CommentService } from './tickets/comment-service.js'
import { TicketService } from './tickets/ticket-service.js'
import { TicketMergeService } from './tickets/ticket-merge-service.js'
import { MacroService } from './macros/macro-service.js'
import { ViewService } from './views/view-service.js'
import { TriggerService } from './triggers/trigger-service.js'
import { AutomationService } from './automations/automation-service.js'
import { AssignmentService } from './assignment/assignment-service.js'
import { recordNotifications } from './notifications/notification-recorder.js'
import { NotificationService } from './notifications/notification-service.js'
import { ImportService } from './imports/import-service.js'
import { recordEventLog } from './event-log/event-log.js'
import { JobRunner } from './jobs/job-runner.js'
import { createMailRecorder } from './mail/mail-recorder.js'
import { MailService } from './mail/mail-service.js'
import type { MailSettings, MailTransport } from './mail/mail.js'
import { registerCoreJobs } from './jobs/core-jobs.js'
import { recordWebhookDeliveries } from './webhooks/webhook-recorder.js'
import { WebhookService } from './webhooks/webhook-service.js'
import { createMaintenance, type Maintenance } from './maintenance.js'
import { EventStream, type EventStreamOptions } from './stream/event-stream.js'
import type { FileStorage, MarketplaceVerifier, PasswordHasher } from './ports.js'
import type { Store } from './store.js'
import { systemClock, type Clock } from './time.js'
import { AgentService } from './users/agent-service.js'
import { CustomerService } from './users/customer-service.js'
import { SettingsService } from './settings/settings-service.js'
import { AccountService } from './auth/account-service.js'
import { createSecretBox } from './auth/secret-box.js'
import { resolveSignInOptions, type SignInOptions } from './auth/sign-in-options.js'
import { SignInService } from './auth/sign-in-service.js'
import { TwoFactorService } from './auth/two-factor.js'
import { SsoService } from './auth/sso/sso-service.js'
import { recordBadRatingNotifications, recordResolutions } from './satisfaction/satisfaction-recorder.js'
import { SatisfactionService } from './satisfaction/satisfaction-service.js'
import { recordHistoryOfEvents } from './history/ticket-history-recorder.js'
import { TicketHistoryService } from './history/ticket-history-service.js'
import { AuditLogService } from './audit/audit-log-service.js'
import { registerSla } from './sla/sla-jobs.js'
import type { SlaService } from './sla/sla-service.js'
import { ReportService } from './reports/report-service.js'
import { recordTicketChannel } from './reports/report-jobs.js'
import { PresenceService } from './presence/presence-service.js'

export interface HelpdeskOptions {
  store: Store
  hasher?: PasswordHasher
  clock?: Clock
  events?: EventBus
  /** Allow `POST /auth/register` (default true). */
  registration?: boolean
  /** Verifies marketplace purchase codes (knowledge-base levels 3/4, category purchase verification). */
  marketplace?: MarketplaceVerifier
  /** Where attachment files are stored. Default: the local directory `./storage` (relative to the working directory). */
  fileStorage?: FileStorage
  /** Caching of bearer-token lookups (revocations always apply at once). Default: 10 s, 10,000 tokens. */
  tokenCache?: TokenCacheOptions
  /**
   * How long sessions (password logins: the console's cookie, `POST /auth/login`) and personal
   * tokens live, enforced on every request. Default: a session ends after 24 hours unused or
   * 14 days after its login; personal tokens do not expire.
   */
  sessions?: SessionOptions
  /**
   * Mail both ways. With a `transport`, events queue mails (`mail.send` jobs,
   * sent by `jobs` once started); without one, only inbound mail is handled.
   */
  mail?: MailSettings & { transport?: MailTransport | undefined }
  /** Signing in: lifetimes of reset, magic and verification links, the secret key sealing stored secrets, SSO re-checks. */
  signIn?: SignInOptions
}

/**
 * The whole domain: every use case, built on one store. HTTP and CLI both call
 * these; the store itself stays inside (operations that are nobody's use case
 * go through the narrow `maintenance` port).
 */
export interface Helpdesk {
  readonly events: EventBus
  /** The help desk's time (webhook signatures and retry times use it too). */
  readonly clock: Clock
  readonly auth: AuthService
  readonly customers: CustomerService
  readonly agents: AgentService
  readonly categories: CategoryService
  readonly customFields: CustomFieldService
  readonly cannedResponses: CannedResponseService
  readonly collections: CollectionService
  readonly articles: ArticleService
  readonly notifications: NotificationService
  readonly imports: ImportService
  readonly tickets: TicketService
  readonly comments: CommentService
  /** Merging, unmerging and splitting tickets (docs/tickets.md "Merge and split"). */
  readonly ticketMerges: TicketMergeService
  readonly attachments: AttachmentService
  /** Each person's unsent reply or note per ticket, saved as they type (issue 35). */
  readonly drafts: DraftService
  /** Macros: named sets of ticket actions staff apply in one call (issue 32). */
  readonly macros: MacroService
  /** Views of the ticket list with their counts (issue 35). */
  readonly views: ViewService
  /** Triggers: administrators' ordered rules, run in the transaction of each ticket change. */
  readonly triggers: TriggerService
  /** Time-based automations: administrators' rules run by the `automations.run` job. */
  readonly automations: AutomationService
  /** Assignment rules per category and the agents' away switch. */
  readonly assignment: AssignmentService
  /** Background jobs: handlers register here; `start()`/`stop()` by whoever runs workers. */
  readonly jobs: JobRunner
  /** Webhook endpoints (administrators); deliveries are sent by the edge's `webhook.deliver` handler. */
  readonly webhooks: WebhookService
  /** Mail both ways (see HelpdeskOptions `mail`) and its records. */
  readonly mail: MailService
  /** Administrator settings kept in the database (email verification, two-factor requirements, SSO-only staff). */
  readonly settings: SettingsService
  /** Password reset, magic sign-in links and email verification. */
  readonly account: AccountService
  /** Two-factor authentication (TOTP and recovery codes). */
  readonly twoFactor: TwoFactorService
  /** Signing in step by step (password or magic link, then a second factor when needed). */
  readonly signIn: SignInService
  /** Single sign-on with OpenID Connect: providers (administrators), sign-ins, sessions' re-checks. */
  readonly sso: SsoService
  /** Customer satisfaction: ratings of closed tickets by their owners, from the portal or a closing mail's signed link. */
  readonly satisfaction: SatisfactionService
  /** The history of each ticket: who changed which field, when, through which door. */
  readonly ticketHistory: TicketHistoryService
  /** Changes to the help desk itself, for administrators; pruned daily past `audit.retention_days`. */
  readonly auditLog: AuditLogService
  /** SLA calendars and policies (administrators), tickets' clocks, the escalation and recalculation jobs. */
  readonly sla: SlaService
  /** Reports over the rollups the `reports.update` job maintains (docs/reports.md). */
  readonly reports: ReportService
  /** Who else is viewing or typing on a ticket (staff only), across instances; `presence.prune` drops expired rows. */
  readonly presence: PresenceService
  /** Readiness, index upkeep, the first administrator, bulk seeding: see `Maintenance`. */
  readonly maintenance: Maintenance
  /**
   * A live event stream over this help desk's event log and notifier (one per
   * app: `GET /events` of the plugin); `stop()` it when done.
   */
  eventStream(options?: Pick<EventStreamOptions, 'maxConnectionsPerUser' | 'resumeLimit' | 'onError'>): EventStream
}

export function createHelpdesk (options: HelpdeskOptions): Helpdesk {
  const context: ServiceContext = {
    store: options.store,
    hasher: options.hasher ?? createArgon2Hasher(),
    clock: options.clock ?? systemClock,
    events: options.events ?? new EventBus(),
    registration: options.registration ?? true,
    marketplace: options.marketplace,
    files: options.fileStorage ?? createLocalFileStorage('./storage')
  }
  // First: later recorders (webhook deliveries) read the event's log id.
  context.events.record(recordEventLog)
  context.events.record(recordNotifications)
  context.events.record(recordWebhookDeliveries)
  context.events.record(recordResolutions)
  context.events.record(recordBadRatingNotifications)
  context.events.record(recordHistoryOfEvents)
  context.events.record(recordTicketChannel)
  const tickets = new TicketService(context)
  const sla = registerSla(context, tickets)
  const comments = new CommentService(context)
  const attachments = new AttachmentService(context)
  const jobs = new JobRunner(context.store, context.clock)
  const satisfaction = new SatisfactionService(context)
  const mail = new MailService(context, options.mail ?? null, options.mail?.transport, { tickets, comments, attachments })
  const sendsMail = mail.outbound !== null && options.mail !== undefined
  if (sendsMail && options.mail !== undefined) context.events.record(createMailRecorder(options.mail))
  const signInOptions = resolveSignInOptions(options.signIn)
  const secrets = createSecretBox(signInOptions.secretKey)
  const auth = new AuthService(context, options.tokenCache, options.sessions)
  const settings = new SettingsService(context)
  const mailOut = options.mail?.transport !== undefined ? { settings: options.mail, transport: options.mail.transport } : null
  const account = new AccountService(context, mailOut, signInOptions)
  const twoFactor = new TwoFactorService(context, settings, secrets, signInOptions.issuer)
  const signIn = new SignInService(context, auth, settings, twoFactor, account, signInOptions)
  auth.signInGate = async (user) => { await signIn.gate(user) }
  const helpdesk: Helpdesk = {
    events: context.events,
    clock: context.clock,
    auth,
    settings,
    account,
    twoFactor,
    signIn,
    sso: new SsoService(context, auth, secrets, signInOptions, signInOptions.publicUrl ?? options.mail?.publicUrl, options.mail?.consoleUrl),
    customers: new CustomerService(context),
    agents: new AgentService(context),
    categories: new CategoryService(context),
    customFields: new CustomFieldService(context),
    cannedResponses: new CannedResponseService(context),
    collections: new CollectionService(context),
    articles: new ArticleService(context),
    notifications: new NotificationService(context),
    imports: new ImportService(context, sla.cache),
    tickets,
    comments,
    ticketMerges: new TicketMergeService(context),
    attachments,
    drafts: new DraftService(context),
    macros: new MacroService(context),
    views: new ViewService(context),
    triggers: new TriggerService(context),
    automations: new AutomationService(context),
    assignment: new AssignmentService(context),
    jobs,
    webhooks: new WebhookService(context),
    mail,
    satisfaction,
    ticketHistory: new TicketHistoryService(context),
    auditLog: new AuditLogService(context),
    sla,
    reports: new ReportService(context),
    presence: new PresenceService(context),
    maintenance: createMaintenance(context),
    eventStream: (streamOptions = {}) => new EventStream({
      ...streamOptions, clock: context.clock, store: context.store, eventLog: context.store.eventLog, notifier: context.store.eventNotifier
    })
  }
  // Every job handler of core, in one place; the channels' (webhook delivery) join them where the workers start.
  registerCoreJobs(helpdesk, context, { sendsMail })
  return helpdesk
}
